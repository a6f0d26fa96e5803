// Every box of the site's stylesheets that scrolls is positioned. Screen-reader text
// (.visually-hidden, app/globals.css) is placed absolutely, so a scroll box clips it only when the
// box is its positioned ancestor; otherwise the text of a cell past the box's edge makes the whole
// page wider than a phone's screen (the API keys page was 455 px wide on a 390 px phone).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.dirname(new URL(import.meta.url).pathname);

function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return stylesheets(full);
    return entry.name.endsWith(".css") ? [full] : [];
  });
}

// The innermost blocks: a rule's declarations (an @media block's rules are blocks of their own).
const RULE = /([^{}]*)\{([^{}]*)\}/g;
const SCROLLS = /(?:^|[;\s])overflow(?:-x|-y)?\s*:\s*(?:auto|scroll)/;
const POSITIONED = /(?:^|[;\s])position\s*:\s*(?:relative|absolute|fixed|sticky)/;

describe("scroll boxes", () => {
  it("are positioned, so they keep screen-reader text inside them", () => {
    const files = stylesheets(APP);
    expect(files.length).toBeGreaterThan(5);
    const unpositioned = files.flatMap((file) =>
      [
        ...readFileSync(file, "utf8")
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .matchAll(RULE),
      ]
        .filter(([, , body]) => SCROLLS.test(body) && !POSITIONED.test(body))
        .map(([, selector]) => `${path.relative(APP, file)}: ${selector.trim()}`),
    );
    expect(unpositioned).toEqual([]);
  });
});
