// The dashboard as a renter meets it (issue 12's problems 1–3): signed in with two running
// rentals, the overview shows them first and the menu puts "My rentals" second, with "List an
// agent" instead of an owner's items; on a 360 px phone the menu is a real menu and no page is
// wider than the screen; the playground scrolls to the newest message, shows the wait, keeps the
// conversation across a reload, copies a reply, and the rental page counts the messages as they
// are sent, without a reload.
import { randomBytes } from "node:crypto";
import { type BrowserContext, expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { signInByEmail } from "./email-sign-in";
import { baseUrl, listAgentWithCli, operatorCli, sql } from "./stack";

test.describe.configure({ mode: "serial" });

const email = `renter-${randomBytes(5).toString("hex")}@example.com`;
const echoes: EchoAgent[] = [];
const rentals: { id: string; code: string; agent: string }[] = [];
let context: BrowserContext;

test.beforeAll(async ({ browser }) => {
  for (const name of ["Echo One", "Echo Two"]) {
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const { agentId, echo } = await listAgentWithCli(payout, ["--name", name, "--price-day", "5"]);
    echoes.push(echo);
    const rental = await operatorCli(["rental:create", "--agent", agentId, "--duration", "day"], { NODE_ENV: "test" });
    rentals.push({ id: String(rental.id), code: String(rental.code), agent: name });
  }
  context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await signInByEmail(page, email);
  // The two rentals become this account's, as a checkout by its wallet would make them.
  await sql("UPDATE rentals SET renter_id = (SELECT id FROM accounts WHERE email = $1) WHERE id = ANY($2::uuid[])", [
    email,
    rentals.map((r) => r.id),
  ]);
  await page.close();
});

test.afterAll(async () => {
  await context?.close();
  for (const echo of echoes) await echo.close();
});

test("a renter lands on their running rentals, not on an owner's empty dashboard", async () => {
  const page = await context.newPage();
  await page.goto("/dashboard");
  const yours = page.getByRole("region", { name: "Your rentals" });
  await expect(yours).toContainText("2 rentals running now");
  for (const rental of rentals) {
    const card = yours.getByRole("listitem").filter({ hasText: rental.agent });
    await expect(card.getByRole("timer")).toHaveAccessibleName(/left\.$/);
    await expect(card.getByRole("link", { name: `Open the chat with ${rental.agent}` })).toHaveAttribute(
      "href",
      `/dashboard/rentals/${rental.id}#playground`,
    );
  }
  await expect(page.getByText("List your first agent")).toHaveCount(0);
  // The renter's part comes before the invitation to list an agent, and the menu says the same.
  const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
  expect(headings.indexOf("Your rentals")).toBeLessThan(headings.indexOf("Run an agent? List it"));
  const menu = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link");
  await expect(menu).toHaveText(["Overview", "My rentals", "List an agent", /^Notifications/]);
  await page.close();
});

test("on a 360 px phone the menu opens every item, marks the current page, and no page is wider than the screen", async ({ browser }) => {
  const phone = await browser.newContext({
    baseURL: baseUrl(),
    storageState: await context.storageState(),
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await phone.newPage();
  await page.goto("/dashboard");
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  const button = nav.getByRole("button", { name: /^Menu/ });
  await expect(button).toHaveText("Menu: Overview");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(nav.getByRole("link", { name: "My rentals" })).toBeHidden();

  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  for (const item of ["Overview", "My rentals", "List an agent", "Notifications"]) {
    await expect(nav.getByRole("link", { name: item })).toBeInViewport();
  }
  // A renter who lists nothing has no listings, figures, payouts or keys to see.
  for (const item of ["Listings", "Stats", "Payouts", "API keys"]) await expect(nav.getByRole("link", { name: item })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "List an agent" })).toHaveAttribute("href", "/dashboard/agents/new");
  await expect(nav.getByRole("button", { name: "Sign out" })).toBeInViewport();
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toBeFocused();

  await button.click();
  await nav.getByRole("link", { name: "My rentals" }).click();
  await page.waitForURL("**/dashboard/rentals");
  await expect(button).toHaveText("Menu: My rentals");
  await expect(button).toHaveAttribute("aria-expanded", "false");

  for (const path of [
    "/dashboard",
    "/dashboard/rentals",
    `/dashboard/rentals/${rentals[0].id}`,
    "/dashboard/agents",
    "/dashboard/keys",
    "/dashboard/stats",
    "/dashboard/payouts",
    "/dashboard/notifications",
    "/dev/outbox",
  ]) {
    await page.goto(path);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${path} is ${width}px wide`).toBeLessThanOrEqual(360);
  }
  await phone.close();
});

test("the playground scrolls to the newest message, shows the wait, counts the messages as they go, keeps the conversation across a reload, and copies a reply", async () => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  const rental = rentals[0];
  await page.goto(`/dashboard/rentals/${rental.id}`);
  const conversation = page.getByRole("list", { name: `Conversation with ${rental.agent}` });
  const box = page.getByLabel(`Message to ${rental.agent}`);
  // The usage counts what was sent, from the service's own records, as it is sent: no reload (the
  // mark set on this document is still there at the end).
  const usage = page.getByRole("region", { name: "Your usage" });
  await expect(usage).toContainText("Messages0");
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));

  // Hold one request on its way, to see the wait as the renter does.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/v1/chat", async (route) => {
    await held;
    await route.continue();
  });
  await box.fill("Message 1");
  await box.press("Enter");
  const waiting = conversation.getByText(/Waiting for the reply… \d+ s/);
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText(/[1-9]\d* s/); // the seconds count up while it waits
  release();
  await expect(conversation.getByText("Waiting for the reply")).toHaveCount(0);
  await page.unroute("**/api/v1/chat");
  await expect(usage).toContainText("Messages1");

  for (let i = 2; i <= 8; i++) {
    await box.fill(`Message ${i}`);
    await box.press("Enter");
    await expect(conversation.getByRole("listitem")).toHaveCount(i);
    await expect(conversation.getByText("Waiting for the reply")).toHaveCount(0);
  }
  // The list overflows, and it is scrolled to its end: the newest reply is in view.
  const scroll = await conversation.evaluate((el) => ({ top: el.scrollTop, height: el.scrollHeight, client: el.clientHeight }));
  expect(scroll.height).toBeGreaterThan(scroll.client);
  expect(scroll.top + scroll.client).toBeGreaterThanOrEqual(scroll.height - 1);
  const newest = conversation.getByRole("listitem").last();
  await expect(newest).toBeInViewport();

  await newest.getByRole("button", { name: "Copy the reply" }).click();
  await expect(newest.getByRole("button", { name: "Copied the reply" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("Message 8");
  await expect(usage).toContainText("Messages8");
  await expect(usage).toContainText("Errors0");
  expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);

  await page.reload();
  await expect(conversation.getByRole("listitem")).toHaveCount(8);
  await expect(conversation.getByRole("listitem").first()).toContainText("Message 1");

  await page.getByRole("button", { name: "Clear the conversation" }).click();
  await page.reload();
  await expect(conversation.getByRole("listitem")).toHaveCount(1); // the empty-state line
  await expect(conversation).toContainText("No messages yet");
  await page.close();
});
