// The marketplace as a renter browses it (issue 12's problem 8): forgiving search (a typo, the start
// of a word, a word of the same stem), tiles with a picture, the owner's name and figures the
// service measured; an owner's uploaded picture on the marketplace; on a phone the agent page keeps
// a Rent button in view and the filters wait behind "Filters" (URLs hold only the chosen fields);
// and a dark theme that follows the system and keeps AA contrast.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { checkAccessibility } from "./check-accessibility";
import { baseUrl, listAgentWithCli, sql } from "./stack";

test.describe.configure({ mode: "serial" });

// A word of its own in the name keeps other specs' agents out of these searches.
const word = `zephyr${randomBytes(3).toString("hex")}`;
const NAME = `Tidewater ${word}`;
let agentId: string;
let echo: EchoAgent;

test.beforeAll(async () => {
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  ({ agentId, echo } = await listAgentWithCli(payout, [
    "--name",
    NAME,
    "--description",
    "Summarises long threads by chatting with you.",
    "--price-day",
    "4",
  ]));
  await sql("UPDATE accounts SET display_name = 'Harbour Labs' WHERE id = (SELECT owner_id FROM agents WHERE id = $1)", [agentId]);
});

test.afterAll(async () => {
  await echo?.close();
});

test("search forgives typos and word forms; the tile shows a picture, the owner and measured figures", async ({ browser }) => {
  const page = await browser.newPage({ baseURL: baseUrl() });
  const search = async (q: string) => {
    await page.goto(`/?q=${encodeURIComponent(q)}`);
    return page.getByRole("article").filter({ hasText: NAME });
  };
  // A typo in the name: a letter left out ("tidewatr") and two letters swapped ("tidewaetr"), as
  // search services forgive them; the start of a word ("tidew"), the same stem ("chat" →
  // "chatting"); each with the unique word that keeps the results to this agent.
  for (const q of [`tidewatr ${word}`, `tidewaetr ${word}`, `tidew ${word}`, `chat ${word}`]) {
    await expect(await search(q), q).toHaveCount(1);
  }
  await expect(await search(`xylophone ${word}`)).toHaveCount(0);

  const tile = await search(word);
  await expect(tile).toContainText("by Harbour Labs");
  await expect(tile).toContainText(/Uptime 100% · |New: not enough data yet/);
  await expect(tile.locator("svg.avatar, img.avatar")).toHaveCount(1);
  await page.close();
});

test("an owner's picture shows on the marketplace in place of the drawn one", async ({ browser }) => {
  // One pixel PNG, stored as the owner's upload would be (the form itself is tested in the unit suite).
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
  await sql("INSERT INTO agent_avatars (agent_id, content_type, data, version) VALUES ($1, 'image/png', $2, 'e2e0000000000001')", [
    agentId,
    png,
  ]);
  const page = await browser.newPage({ baseURL: baseUrl() });
  await page.goto(`/?q=${word}`);
  const picture = page.getByRole("article").filter({ hasText: NAME }).locator("img.avatar");
  await expect(picture).toHaveAttribute("src", `/api/agents/${agentId}/avatar?v=e2e0000000000001`);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(1);
  await page.close();
});

test("on a phone the agent page keeps a Rent button in view, which leads to the rent box", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`/agents/${agentId}`);
  const rent = page.getByRole("link", { name: `Rent ${NAME}: choose a duration` });
  await expect(rent).toBeInViewport();
  await page.mouse.wheel(0, 600);
  await expect(rent).toBeInViewport();
  await rent.click();
  await expect(page.getByRole("link", { name: "Rent for 1 day" })).toBeInViewport();
  await context.close();
});

test("on a 360 px phone the filters wait behind Filters, so the first result is on the first screen; URLs hold only what was chosen", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`/?q=${word}`);
  const filters = page.getByText("Filters", { exact: true });
  const firstResult = page.getByRole("article").first();
  await expect(firstResult).toBeInViewport();
  await expect(firstResult).toContainText(NAME);
  await expect(page.getByLabel("Duration", { exact: true })).toBeHidden();

  await filters.click();
  await page.getByLabel("Duration", { exact: true }).selectOption("day");
  await page.getByRole("button", { name: "Apply filters" }).click();
  // Only the fields with a value: no category=&skill=&… and no sort for the default order.
  await page.waitForURL((url) => url.search === `?q=${word}&duration=day`);
  await expect(page.getByText("Filters (1 active)", { exact: true })).toBeVisible();
  await expect(page.getByRole("article").first()).toBeInViewport();
  await context.close();
});

test("a dark system gets the dark theme, with AA contrast on the main pages", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: baseUrl(), colorScheme: "dark" });
  const page = await context.newPage();
  for (const [label, path] of [
    ["marketplace", `/?q=${word}`],
    ["agent", `/agents/${agentId}`],
    ["sign-in", "/sign-in"],
    ["docs", "/docs/renters"],
  ]) {
    await page.goto(path);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(12, 12, 15)");
    await checkAccessibility(page, testInfo, `${label}-dark`);
  }
  await context.close();
});
