// The renter sees the service they got (issue 25): on the rental's page the strip of its minutes,
// the sentence that says what it shows, the down cells with their titles, and the refund line with
// the exact amount the downtime beyond the guarantee returns; then, once settled, what was
// refunded. A day's strip is 15-minute cells. On a 360 px phone nothing is wider than the screen
// and axe finds nothing serious. The minutes are written as the per-minute probe records them.
import { randomBytes } from "node:crypto";
import { type BrowserContext, expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { tooWide } from "./capture-pages";
import { checkAccessibility } from "./check-accessibility";
import { signInByEmail } from "./email-sign-in";
import { baseUrl, listAgentWithCli, operatorCli, sql } from "./stack";

test.describe.configure({ mode: "serial" });

const email = `minutes-${randomBytes(5).toString("hex")}@example.com`;
let echo: EchoAgent;
let context: BrowserContext;
// An hour that ended an hour ago or more, and a day that began three hours ago.
const hour = { id: "", startsAt: new Date(0), minutes: 60 };
const day = { id: "", startsAt: new Date(0), minutes: 1440 };

// "07:14", or "26 Nov, 07:14" for a rental whose minutes cross a UTC midnight: a minute of the
// rental as the page shows it.
const DAY_CLOCK = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
function clock(rental: { startsAt: Date; minutes: number }, minute: number): string {
  const at = new Date(rental.startsAt.getTime() + minute * 60_000);
  const last = new Date(rental.startsAt.getTime() + (rental.minutes - 1) * 60_000);
  const crosses = rental.startsAt.toISOString().slice(0, 10) !== last.toISOString().slice(0, 10);
  return crosses ? DAY_CLOCK.format(at) : at.toISOString().slice(11, 16);
}

// The end of a spell of down minutes: its day only when it is not the start's.
function spellEnd(rental: { startsAt: Date; minutes: number }, first: number, last: number): string {
  const date = (minute: number) => new Date(rental.startsAt.getTime() + minute * 60_000).toISOString().slice(0, 10);
  return date(first) === date(last) ? clock(rental, last).slice(-5) : clock(rental, last);
}

async function rental(agentId: string, flags: string[]): Promise<{ id: string; startsAt: Date }> {
  const made = await operatorCli(["rental:create", "--agent", agentId, ...flags], { NODE_ENV: "test" });
  return { id: String(made.id), startsAt: new Date(String(made.starts_at)) };
}

test.beforeAll(async ({ browser }) => {
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  const listed = await listAgentWithCli(payout, ["--name", "Minute Counter", "--price-hour", "6", "--price-day", "24"]);
  echo = listed.echo;
  // The hour: a whole clock hour that has ended, so its minutes never cross a UTC midnight.
  hour.id = (await rental(listed.agentId, ["--duration", "hour", "--starts-in=-7200", "--ends-in=-3600"])).id;
  hour.startsAt = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 7_200_000);
  await sql("UPDATE rentals SET starts_at = $2, ends_at = $3 WHERE id = $1", [
    hour.id,
    hour.startsAt,
    new Date(hour.startsAt.getTime() + 3_600_000),
  ]);
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const dayAgo = Math.round((minute - 180 * 60_000 - Date.now()) / 1000);
  Object.assign(day, await rental(listed.agentId, ["--duration", "day", `--starts-in=${dayAgo}`]));
  // As the probe left them: the hour's minutes 14–28 down (15 of 60, against a 99% guarantee that
  // allows none: a quarter of the 6 USDC back); the day's minutes 31 and 100–102.
  await sql("UPDATE rentals SET guarantee_permille = 990, minutes_measured = '{0,60}', minutes_down = '{14,29}' WHERE id = $1", [hour.id]);
  await sql("UPDATE rentals SET guarantee_permille = 990, minutes_measured = '{0,180}', minutes_down = '{31,32,100,103}' WHERE id = $1", [
    day.id,
  ]);

  context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await signInByEmail(page, email);
  await sql("UPDATE rentals SET renter_id = (SELECT id FROM accounts WHERE email = $1) WHERE id = ANY($2::uuid[])", [
    email,
    [hour.id, day.id],
  ]);
  await page.close();
});

test.afterAll(async () => {
  await context?.close();
  await echo?.close();
});

test("the rental's page draws its minutes, names the down ones and says what comes back of the price", async () => {
  const page = await context.newPage();
  await page.goto(`/dashboard/rentals/${hour.id}`);
  const uptime = page.getByRole("region", { name: "Uptime" });
  const summary = `45 of 60 minutes up, 15 down (${clock(hour, 14)}–${spellEnd(hour, 14, 28)} UTC).`;
  await expect(uptime.getByRole("figure")).toContainText(summary);
  // The strip is one image, named by that sentence; its cells are its parts, each with a title.
  await expect(uptime.getByRole("img", { name: summary })).toBeVisible();
  const down = uptime.locator('[title$=": down"]');
  await expect(down).toHaveCount(15);
  await expect(down.first()).toHaveAttribute("title", `${clock(hour, 14)} UTC: down`);
  await expect(down.last()).toHaveAttribute("title", `${clock(hour, 28)} UTC: down`);
  await expect(uptime.locator('[title$=": up"]')).toHaveCount(45);
  // A down cell is taller than an up one: not colour alone.
  const [downBox, upBox] = [await down.first().boundingBox(), await uptime.locator('[title$=": up"]').first().boundingBox()];
  expect(downBox!.height).toBeGreaterThan(upBox!.height);
  await expect(uptime).toContainText(
    "Uptime 75% against a 99% guarantee: 1.50 USDC of the price comes back to you when the rental is settled.",
  );

  // Once the escrow has settled it, the page says what it refunded.
  await sql("UPDATE rentals SET availability_refund_micro_usdc = 1500000 WHERE id = $1", [hour.id]);
  await page.reload();
  await expect(uptime).toContainText("Uptime 75% against a 99% guarantee: 1.50 USDC was refunded to you.");
  await page.close();
});

test("a running day: 15-minute cells, so far, within the guarantee", async () => {
  const page = await context.newPage();
  await page.goto(`/dashboard/rentals/${day.id}`);
  const uptime = page.getByRole("region", { name: "Uptime" });
  await expect(uptime.getByRole("figure")).toContainText(
    `minutes up, 4 down (${clock(day, 31)}, ${clock(day, 100)}–${spellEnd(day, 100, 102)} UTC); `,
  );
  await expect(uptime.locator("[title]")).toHaveCount(96);
  await expect(uptime.locator('[title$=": 1 of 15 minutes down"]')).toHaveCount(1);
  await expect(uptime.locator('[title$=": 3 of 15 minutes down"]')).toHaveCount(1);
  await expect(uptime.getByRole("figure")).toContainText(/So far 17[6-8] of 18[0-2] minutes up/);
  // 180 or so minutes begun: 12 or 13 of the 15-minute cells.
  expect(await uptime.locator('[title$=": not yet"]').count()).toBeGreaterThanOrEqual(96 - 13);
  expect(await uptime.locator('[title$=": not yet"]').count()).toBeLessThanOrEqual(96 - 12);
  await expect(uptime).toContainText(/Uptime so far 9\d(\.\d+)?% against a 99% guarantee\. Within the guarantee so far: no refund due\./);
  await page.close();
});

test("on a 360 px phone the strips fit the screen and axe finds nothing serious", async ({ browser }, testInfo) => {
  const phone = await browser.newContext({
    baseURL: baseUrl(),
    storageState: await context.storageState(),
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await phone.newPage();
  for (const [name, rentalId] of [
    ["hour", hour.id],
    ["day", day.id],
  ]) {
    await page.goto(`/dashboard/rentals/${rentalId}`);
    const strip = page.getByRole("region", { name: "Uptime" }).getByRole("img");
    await strip.scrollIntoViewIfNeeded();
    await expect(strip).toBeInViewport({ ratio: 1 });
    expect(await tooWide(page, 360), `the ${name} rental's page at 360 px`).toEqual([]);
    await checkAccessibility(page, testInfo, `rental-minutes-${name}-phone`);
  }
  await phone.close();
});
