// The whole product in a browser, in order: an owner lists an agent and connects its webhook; a
// renter finds it, pays with a wallet, chats and rates; the rental ends, the escrow is released,
// the renter is notified and the owner sees the payout.
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type EchoAgent, startEchoAgent } from "../scripts/echo-agent";
import { capturePages } from "./capture-pages";
import { afterRentalsEnd, baseUrl, keys, runCron, sql, usdcBalance } from "./stack";
import { installTestWallet, TEST_WALLET_NAME } from "./test-wallet";

test.describe.configure({ mode: "serial" });

const AGENT_NAME = "Research Scout";
let echo: EchoAgent | undefined;
let owner: Page;
let renter: Page;
let agentId: string;
let rentalCode: string;

async function walletPage(browser: Browser, key: Hex): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, key);
  return page;
}

async function signInWithWallet(page: Page) {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await page.waitForURL("**/dashboard");
}

test.afterAll(async () => {
  await echo?.close();
  await owner?.context().close();
  await renter?.context().close();
});

test("an owner signs in with a wallet, lists an agent, connects its webhook and manages API keys", async ({ browser }) => {
  owner = await walletPage(browser, keys.owner());
  await signInWithWallet(owner);

  await owner.goto("/dashboard/agents/new");
  await owner.getByLabel("Name").fill(AGENT_NAME);
  await owner.getByLabel("Description").fill("Finds sources, reads them and writes a short, cited brief.");
  await owner.getByLabel("Price per hour").fill("2.5");
  await owner.getByLabel("Price per day").fill("20");
  await owner.getByRole("button", { name: "Create listing" }).click();
  await owner.waitForURL(/\/dashboard\/agents\/[0-9a-f-]{36}\?created=1$/);
  agentId = owner.url().match(/agents\/([0-9a-f-]{36})/)![1];
  await expect(owner.getByRole("status").filter({ hasText: "Listing created" })).toBeVisible();
  await expect(owner.locator(".badge")).toHaveText("Status: Not connected");

  // Not on the marketplace while offline.
  const hidden = await owner.request.get(`/agents/${agentId}/rent`);
  expect(await hidden.text()).not.toContain("Checkout");

  await owner.getByRole("button", { name: "Generate token" }).click();
  const token = await owner.getByRole("textbox", { name: "Webhook token" }).inputValue();
  expect(token.length).toBeGreaterThanOrEqual(32);
  echo = await startEchoAgent(token);
  await owner.getByRole("textbox", { name: "Webhook URL" }).fill(echo.url);
  await owner.getByRole("button", { name: "Test connection" }).click();
  const result = owner.getByRole("definition").filter({ hasText: /^Available$/ });
  await expect(result).toBeVisible();
  await owner.reload();
  await expect(owner.locator(".badge")).toHaveText("Status: Available");

  await owner.goto("/dashboard/keys");
  await owner.getByLabel("Label (optional)").fill("Deploy script");
  await owner.getByRole("button", { name: /create/i }).click();
  const apiKey = (await owner.getByLabel("New API key").textContent())!.trim();
  expect(apiKey).toMatch(/^rck_/);
  const listed = await fetch(`${baseUrl()}/api/public/agents`, { headers: { "X-API-Key": apiKey } });
  expect(listed.status).toBe(200);
  expect(JSON.stringify(await listed.json())).toContain(AGENT_NAME);

  const row = owner.getByRole("row").filter({ hasText: "Deploy script" });
  await expect(row).toBeVisible();
  await row.getByText("Revoke…").click();
  await expect(row).toContainText("Scripts using this key stop working at once.");
  await row.getByRole("button", { name: /^Revoke key/ }).click();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /^Revoke key/ })).toHaveCount(0);
  const refused = await fetch(`${baseUrl()}/api/public/agents`, { headers: { "X-API-Key": apiKey } });
  expect(refused.status).toBe(401);

  // A key that stays active: the page captures below check its row, Revoke button included, at
  // phone width (its screen-reader text once made the page 455 px wide on a 390 px phone).
  await owner.getByLabel("Label (optional)").fill("Nightly report");
  await owner.getByRole("button", { name: /create/i }).click();
  await expect(owner.getByRole("row").filter({ hasText: "Nightly report" }).getByText("Revoke…")).toBeVisible();
});

test("a renter finds the agent, pays with a browser wallet and gets a rental code", async ({ browser }) => {
  renter = await walletPage(browser, keys.renter());
  await renter.goto("/");
  await renter.getByRole("searchbox").fill("scout");
  await renter.getByLabel("Channel").selectOption("API");
  await renter.getByLabel("Duration").selectOption("hour");
  await renter.getByRole("button", { name: "Search" }).click();
  await expect(renter).toHaveURL(/q=scout/);
  await expect(renter).toHaveURL(/channel=API/);
  await renter.getByRole("link", { name: AGENT_NAME }).first().click();
  await renter.waitForURL(`**/agents/${agentId}`);
  await expect(renter.getByRole("heading", { level: 1, name: AGENT_NAME })).toBeVisible();

  await renter.getByRole("link", { name: /^Rent/ }).first().click();
  await renter.waitForURL(`**/agents/${agentId}/rent**`);
  await renter.getByLabel(/^1 hour/).check();
  await expect(renter.getByTestId("total-amount")).toHaveText("3.50 USDC");

  await renter.getByRole("button", { name: `Connect with ${TEST_WALLET_NAME}` }).click();
  await expect(renter.getByTestId("usdc-balance")).toContainText("USDC");
  await renter.getByRole("button", { name: "Pay 3.50 USDC" }).click();

  const result = renter.getByTestId("rental-result");
  await expect(result).toBeVisible({ timeout: 60_000 });
  rentalCode = (await result.getByTestId("rental-code").textContent())!.trim();
  expect(rentalCode).toMatch(/^[0-9a-f]{8,}$/);
  await expect(result).toContainText(`curl`);
  await expect(result).toContainText(rentalCode);

  const status = await fetch(`${baseUrl()}/api/v1/status`, { headers: { "X-API-Key": rentalCode } });
  expect(status.status).toBe(200);
});

test("the renter chats with the agent in the playground and rates it", async () => {
  await signInWithWallet(renter);
  await renter.goto("/dashboard/rentals");
  await renter.getByRole("link", { name: AGENT_NAME }).first().click();
  await renter.getByLabel(`Message to ${AGENT_NAME}`).fill("Hello from the browser");
  await renter.getByRole("button", { name: "Send" }).click();
  await expect(renter.getByRole("list", { name: `Conversation with ${AGENT_NAME}` })).toContainText("Echo: Hello from the browser");

  await renter.getByRole("radio", { name: /^5 stars/ }).check();
  await renter.getByLabel(/^Comment/).fill("Quick and to the point.");
  await renter.getByRole("button", { name: "Save rating" }).click();
  await expect(renter.getByText("Quick and to the point.")).toBeVisible();

  await renter.goto(`/agents/${agentId}`);
  await expect(renter.getByText("Quick and to the point.")).toBeVisible();
});

function payoutCard(page: Page, title: string) {
  return page
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${title}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

test("the rental ends: the sweep releases the escrow, the renter is notified, the owner sees the payout", async () => {
  const ownerAddress = privateKeyToAccount(keys.owner()).address;
  const balanceBefore = await usdcBalance(ownerAddress);
  await owner.goto("/dashboard/payouts");
  await expect(payoutCard(owner, "In escrow")).toContainText("2.50");
  await expect(payoutCard(owner, "Released")).toContainText("0.00");

  const summary = (await afterRentalsEnd(agentId, 2 * 3600, () => runCron("release-rentals"))) as { completed: number };
  expect(summary.completed).toBe(1);
  const [rental] = await sql<{ status: string }>("SELECT status FROM rentals WHERE agent_id = $1", [agentId]);
  expect(rental.status).toBe("completed");

  await renter.goto("/dashboard/notifications");
  await expect(renter.getByRole("listitem").filter({ hasText: AGENT_NAME })).toBeVisible();

  await owner.reload();
  await expect(payoutCard(owner, "Released")).toContainText("2.50");
  await expect(payoutCard(owner, "In escrow")).toContainText("0.00");
  expect((await usdcBalance(ownerAddress)) - balanceBefore).toBe(2_500_000n);
});

test("every main page at desktop and phone width: screenshots, nothing wider than the screen, no layout shift, no serious axe violation", async ({
  browser,
}, testInfo) => {
  const [rental] = await sql<{ id: string }>("SELECT id FROM rentals WHERE agent_id = $1", [agentId]);
  const visitor = await browser.newContext({ baseURL: baseUrl() });
  await capturePages(browser, testInfo, [
    {
      context: visitor,
      pages: {
        marketplace: "/",
        agent: `/agents/${agentId}`,
        checkout: `/agents/${agentId}/rent`,
        "sign-in": "/sign-in",
      },
    },
    {
      context: owner.context(),
      pages: {
        "owner-overview": "/dashboard",
        "owner-listings": "/dashboard/agents",
        "owner-listing": `/dashboard/agents/${agentId}`,
        "owner-new-listing": "/dashboard/agents/new",
        "owner-keys": "/dashboard/keys",
        "owner-stats": "/dashboard/stats",
        "owner-payouts": "/dashboard/payouts",
      },
    },
    {
      context: renter.context(),
      pages: {
        "renter-rentals": "/dashboard/rentals",
        "renter-rental": `/dashboard/rentals/${rental.id}`,
        "renter-notifications": "/dashboard/notifications",
      },
    },
  ]);
  await visitor.close();
});
