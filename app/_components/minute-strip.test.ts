// The minute strip as the server renders it: one element per cell with its title, rows with their
// start times for long rentals, the sentence that names the image, and the key in words.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MinuteStrip } from "@/app/_components/minute-strip";

const startsAt = new Date("2026-11-01T00:00:00Z");
const render = (minutesTotal: number, minutesElapsed: number, down: number[]) =>
  renderToStaticMarkup(
    createElement(MinuteStrip, {
      id: "strip",
      startsAt,
      minutes: { minutesTotal, minutesElapsed, downMinutes: down.map((m) => new Date(startsAt.getTime() + m * 60_000)) },
    }),
  );
const titles = (html: string) => [...html.matchAll(/title="([^"]*)"/g)].map((m) => m[1]);

describe("MinuteStrip", () => {
  it("an hour: 60 cells in one row, with the times at both ends, named by its sentence", () => {
    const html = render(60, 60, [14]);
    expect(titles(html)).toHaveLength(60);
    expect(titles(html)[14]).toBe("00:14 UTC: down");
    expect(html).toContain('role="img" aria-labelledby="strip-summary"');
    expect(html).toContain('<figcaption id="strip-summary"');
    expect(html).toContain("59 of 60 minutes up, 1 down (00:14 UTC).");
    expect(html).toMatch(/<span>00:00<\/span><span>01:00 UTC<\/span>/);
    expect(html).toContain("Each cell: one minute");
  });

  it("a month: 120 cells of 6 hours in rows of 6 days, each row labelled with its start", () => {
    const html = render(43_200, 10_000, [361]);
    expect(titles(html)).toHaveLength(120);
    expect(titles(html)[1]).toBe("1 Nov, 06:00–12:00 UTC: 1 of 360 minutes down");
    expect(titles(html)[119]).toBe("30 Nov, 18:00–1 Dec, 00:00 UTC: not yet");
    expect(html.match(/>\d+ \w+, 00:00<\/span>/g)).toHaveLength(5);
    expect(html).toContain("Each cell: 6 hours, a row: 6 days");
    expect(html).toContain("Down (a minute or more)");
    expect(html).toContain("So far 9,999 of 10,000 minutes up, 1 down (1 Nov, 06:01 UTC); 33,200 minutes to go.");
  });
});
