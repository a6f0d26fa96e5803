// The arbiter console as the server renders it, on the real database (the role read on chain is
// test/chain/arbiter-role.test.ts's; here the wallet holds it): beside the renter's words the
// owner's answer, as text; below the open disputes the decided ones, newest first, a page at a
// time, each with its outcome, time, transaction and both sides' words; no part of a rental's id.
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { DECIDED_PER_PAGE } from "@/lib/disputes/list-disputes";
import { formatClock } from "@/lib/format/date-time";
import { mockedCookies, signInNewRenter } from "@/test/dashboard-session";
import { disputedRental } from "@/test/dispute-fixtures";
import { makeAgent } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";

// The console lists every dispute there is: this file's own database.
isolateDatabase("disputes_console");

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("@/lib/chain/holds-arbiter-role", () => ({ holdsArbiterRole: async () => true }));

const { default: DisputesPage } = await import("@/app/dashboard/disputes/page");

const render = async (page?: string) => renderToStaticMarkup(await DisputesPage({ searchParams: Promise.resolve({ page }) }));
// The page's words, as a reader gets them.
const words = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ");
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 10, minutes));

type Disputed = Awaited<ReturnType<typeof disputedRental>>;
let open: Disputed;
let unanswered: Disputed;
let decided: Disputed[];

beforeAll(async () => {
  await signInNewRenter();
  const agent = await makeAgent({ listing: { name: "Flaky Translator" } });
  open = await disputedRental({ agent, openedAt: at(0) });
  await db.dispute.update({
    where: { rentalId: open.rental.id },
    data: { ownerAnswer: '<script>alert("x")</script>\nThe agent was up.', ownerAnsweredAt: at(5) },
  });
  unanswered = await disputedRental({ agent, openedAt: at(1) });
  decided = [];
  // The oldest decision: the owner accepted (a full refund); then the arbiter's partial refunds.
  decided.push(await disputedRental({ agent, openedAt: at(2), decided: { at: at(100), refundMicro: 10_000_000n, by: "owner" } }));
  for (let i = 1; i <= DECIDED_PER_PAGE; i++) {
    decided.push(await disputedRental({ agent, openedAt: at(2 + i), decided: { at: at(100 + i), refundMicro: 1_500_000n } }));
  }
  await db.dispute.update({
    where: { rentalId: decided[DECIDED_PER_PAGE].rental.id },
    data: { ownerAnswer: "Answered before the decision.", ownerAnsweredAt: at(50) },
  });
});

describe("the arbiter console", () => {
  it("shows the owner's answer beside the renter's words, as text", async () => {
    const html = await render();
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert");
    const text = words(html);
    expect(text).toContain(`Flaky Translator, rental ${open.rental.ref}`);
    expect(text).toContain(`The owner's answer ( 20 Nov 2026, 10:05 UTC ): <script>alert("x")</script>`);
    expect(text).toContain("The owner has not answered in words.");
    expect(text).toContain(`rental ${unanswered.rental.ref}`);
  });

  it("keeps decided disputes below the open ones, newest first, with the outcome, when, the transaction and both sides' words", async () => {
    const html = await render();
    const text = words(html);
    const newest = decided[DECIDED_PER_PAGE];
    expect(text.indexOf("Decided")).toBeGreaterThan(text.indexOf(`rental ${unanswered.rental.ref}`));
    expect(text).toContain(`${DECIDED_PER_PAGE + 1} decided disputes, newest decision first: 1 to ${DECIDED_PER_PAGE}.`);
    expect(text).toContain(
      "Dispute decided: partial refund. The arbiter decided the dispute with a partial refund: 1.50 USDC of the 10.00 USDC price went back to the renter and 8.50 USDC was paid to the owner.",
    );
    expect(text).toContain(`Decided 20 Nov 2026, 12:00 UTC Transaction ${newest.dispute.resolveTxHash}`);
    expect(text).toContain(`Paid by ${newest.rental.renterAddress}`);
    expect(text).toContain(
      "The agent is not responding. It stopped answering. The owner's answer ( 20 Nov 2026, 10:50 UTC ): Answered before the decision.",
    );
    expect(text).toContain("The owner did not answer in words.");
    // The newest page holds the newest twenty; the oldest decision is on the next, linked.
    for (const d of decided.slice(1)) expect(text).toContain(`rental ${d.rental.ref}`);
    expect(text).not.toContain(decided[0].rental.ref);
    expect(html).toContain('href="/dashboard/disputes?page=2#decided"');
    expect(text).toContain("Older decisions →");
    expect(text).not.toContain("Newer decisions");
  });

  it("shows the older decisions on the next page, linked back, and reads a page it cannot as the first", async () => {
    const text = words(await render("2"));
    expect(text).toContain(
      `${DECIDED_PER_PAGE + 1} decided disputes, newest decision first: ${DECIDED_PER_PAGE + 1} to ${DECIDED_PER_PAGE + 1}.`,
    );
    expect(text).toContain(
      `rental ${decided[0].rental.ref} Dispute decided: full refund. The owner accepted the dispute with a full refund: 11.00 USDC (the price and the fee) went back to the renter, and the rental is cancelled.`,
    );
    expect(text).not.toContain(decided[1].rental.ref);
    expect(text).toContain("← Newer decisions");
    expect(text).not.toContain("Older decisions");
    // The open disputes stay on top of every page.
    expect(text).toContain(`rental ${open.rental.ref}`);
    expect(words(await render("many"))).toContain(`rental ${decided[1].rental.ref}`);
  });

  it("shows the disputed rental's measured minutes as evidence: uptime, the down minutes, the strip, what the guarantee refunds", async () => {
    const measured = await disputedRental({ openedAt: at(3) });
    // A whole clock hour that has ended (its times never cross a UTC midnight), 4 USDC, a 99%
    // guarantee: minutes 20–31 down.
    const startsAt = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
    await db.rental.update({
      where: { id: measured.rental.id },
      data: {
        startsAt,
        endsAt: new Date(startsAt.getTime() + 3_600_000),
        priceMicro: 4_000_000n,
        guaranteePermille: 990,
        minutesMeasured: [0, 60],
        minutesDown: [20, 32],
      },
    });
    const clock = (minute: number) => formatClock(new Date(startsAt.getTime() + minute * 60_000));
    const html = await render();
    const section = html.slice(html.indexOf(`id="dispute-${measured.rental.ref}"`));
    const text = words(section.slice(0, section.indexOf("</section>")));
    expect(text).toContain(`48 of 60 minutes up, 12 down (${clock(20)}–${clock(31)} UTC).`);
    expect(text).toMatch(/Uptime, every minute 80% \( ?12 of 60 minutes down, against a 99% guarantee ?\)/);
    expect(text).toContain("Refund by the guarantee 0.80 USDC of 4.00 USDC: what settling by these minutes would return");
    // The reasons first, then the minutes, then the health checks' figures.
    expect(text.indexOf("The agent is not responding")).toBeLessThan(text.indexOf("48 of 60 minutes up"));
    expect(text.indexOf("48 of 60 minutes up")).toBeLessThan(text.indexOf("Measured downtime"));
    expect(html.match(/title="[^"]*: down"/g)).toHaveLength(12);
    expect(html).toContain(`aria-labelledby="minutes-${measured.rental.ref}-summary"`);
    const hex = measured.rental.id.replaceAll("-", "");
    for (let i = 0; i + 8 <= hex.length; i += 4) expect(html.toLowerCase()).not.toContain(hex.slice(i, i + 8));
  });

  it("names every rental by its reference and paying wallet: no part of any rental's id is in the page", async () => {
    for (const page of [undefined, "2"]) {
      const html = (await render(page)).toLowerCase();
      for (const { rental } of [open, unanswered, ...decided]) {
        const hex = rental.id.replaceAll("-", "");
        for (let i = 0; i + 8 <= hex.length; i += 4) expect(html).not.toContain(hex.slice(i, i + 8));
      }
    }
  });
});
