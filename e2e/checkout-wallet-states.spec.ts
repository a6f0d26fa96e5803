// The checkout with a wallet that is not ready: on another network, short of USDC, and a renter
// who declines the signature once. Each state is said in words before any transaction, and the
// payment still completes after a retry.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { baseUrl, keys, listAgentWithCli, mintUsdc, operatorCli, sql, usdcBalance } from "./stack";
import { installTestWallet, TEST_WALLET_NAME } from "./test-wallet";

let echo: EchoAgent;
let agentId: string;

test.beforeAll(async () => {
  const payout = privateKeyToAccount(`0x${"11".repeat(32)}`).address;
  ({ agentId, echo } = await listAgentWithCli(payout, ["--name", "Ledger Clerk", "--category", "finance", "--price-day", "12"]));
});

test.afterAll(async () => {
  await echo?.close();
});

test("a wallet on another network is switched; a balance too low is said before any transaction; a declined signature can be retried", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const wallet = await installTestWallet(page, keys.unfundedRenter(), { chainId: 1 });

  await page.goto(`/agents/${agentId}/rent?duration=day`);
  await expect(page.getByTestId("total-amount")).toHaveText("13.00 USDC");
  await page.getByRole("button", { name: `Connect with ${TEST_WALLET_NAME}` }).click();

  // Connecting asks the wallet to move to the checkout's chain.
  await expect(page.getByTestId("usdc-balance")).toContainText(/Balance: 0\.00 USDC/);
  expect(wallet.requests).toContain("wallet_switchEthereumChain");

  // The user moves the wallet to another network: no Pay button, a Switch button instead.
  await wallet.switchNetwork(1);
  const switchButton = page.getByRole("button", { name: /^Switch to / });
  await expect(switchButton).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
  await switchButton.click();
  await expect(page.getByTestId("usdc-balance")).toBeVisible();

  // Nothing in the wallet: the shortfall is said, and pressing Pay sends nothing.
  await expect(page.getByTestId("balance-shortfall")).toContainText("add at least 13.00 USDC");
  await page.getByRole("button", { name: "Pay 13.00 USDC" }).click();
  await expect(page.getByTestId("checkout-notice")).toContainText("13.00 USDC");
  expect(wallet.prompts).toEqual([]);

  await mintUsdc(wallet.address, 20_000_000n);
  await page.getByRole("button", { name: "Refresh balance" }).click();
  await expect(page.getByTestId("usdc-balance")).toContainText(/Balance: 20\.00 USDC/);
  await expect(page.getByTestId("balance-shortfall")).toHaveCount(0);

  // The renter declines the first signature: that step fails in words, with a Retry.
  wallet.rejectNextPrompt();
  await page.getByRole("button", { name: "Pay 13.00 USDC" }).click();
  const failedStep = page.locator('[data-status="failed"]');
  await expect(failedStep).toContainText(/cancel|reject|declin/i);
  await page.getByRole("button", { name: "Retry" }).click();

  const result = page.getByTestId("rental-result");
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(result.getByTestId("rental-code")).toHaveText(/^[0-9a-f]{8,}$/);
  expect(await usdcBalance(wallet.address)).toBe(7_000_000n);
  // One declined signature, then one signature and one transaction (permit).
  expect(wallet.prompts).toEqual(["eth_signTypedData_v4", "eth_signTypedData_v4", "eth_sendTransaction"]);
  await context.close();
});

test("the choice is fixed from the moment Pay is pressed, before any wallet prompt", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, keys.unfundedRenter());
  // The balance read that starts a payment is held until the test lets it go.
  const rpc = process.env.E2E_RPC_URL!;
  let release = () => {};
  let holding = false;
  let held = false;
  await page.route(
    (url) => url.href.startsWith(rpc),
    async (route) => {
      if (holding && /"eth_call"/.test(route.request().postData() ?? "") && /70a08231/.test(route.request().postData() ?? "")) {
        holding = false;
        held = true;
        await new Promise<void>((resolve) => (release = resolve));
      }
      await route.continue();
    },
  );

  await page.goto(`/agents/${agentId}/rent?duration=day`);
  await page.getByRole("button", { name: `Connect with ${TEST_WALLET_NAME}` }).click();
  await expect(page.getByTestId("usdc-balance")).toBeVisible();
  const choice = page.getByRole("radio").first();
  await expect(choice).toBeEnabled();

  holding = true;
  await page.getByRole("button", { name: "Pay 13.00 USDC" }).click();
  await expect.poll(() => held).toBe(true);
  await expect(choice).toBeDisabled();
  release();
  // Short of USDC: nothing is sent, and the choice is free again.
  await expect(page.getByTestId("checkout-notice")).toContainText("13.00 USDC");
  await expect(choice).toBeEnabled();
  await context.close();
});

/**
 * An owner's webhook in this process: health checks get `status`, each held until `release()`
 * when `hold` is set, so the page can be seen while the service's check is waiting for it.
 */
async function agentWebhook(status: number) {
  let hold = false;
  let release = () => {};
  const checks: string[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.headers["x-health-check"] === "true") {
      checks.push(body);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
    }
    res.writeHead(status, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/agent`,
    checks,
    holdNext: () => (hold = true),
    release: () => {
      hold = false;
      release();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An available listing (12 USDC a day) on that webhook, made with the operator CLI (no test connection). */
async function agentOn(url: string, name: string): Promise<string> {
  const payout = privateKeyToAccount(generatePrivateKey()).address; // one account per wallet
  const owner = await operatorCli(["owner:create", "--email", `owner-${randomBytes(6).toString("hex")}@example.com`, "--wallet", payout]);
  const agent = await operatorCli([
    ...["agent:create", "--owner", String(owner.accountId), "--name", name, "--price-day", "12"],
    ...["--webhook-url", url, "--webhook-token", randomBytes(32).toString("base64url")],
  ]);
  return String(agent.id);
}

/** The quote step's height: the steps below it move only if it grows or shrinks. */
const quoteHeight = async (page: Page) => (await page.getByTestId("step-quote").boundingBox())!.height;

test("the checkout checks that the agent answers before the quote: the check while it runs, then its outcome, in place", async ({
  browser,
}) => {
  const hook = await agentWebhook(200);
  const name = "Pager Duty Scout";
  const id = await agentOn(hook.url, name);
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const wallet = await installTestWallet(page, keys.renter());
  try {
    await page.goto(`/agents/${id}/rent?duration=day`);
    await page.getByRole("button", { name: `Connect with ${TEST_WALLET_NAME}` }).click();
    await expect(page.getByTestId("usdc-balance")).toBeVisible();
    const quoteStep = page.getByTestId("step-quote");
    await expect(page.getByTestId("step-quote-detail")).toHaveText(`First checks that ${name} is answering`);
    const height = await quoteHeight(page);

    // The webhook holds its answer: the page says the check is running, aloud too.
    hook.holdNext();
    wallet.rejectNextPrompt(); // stop at the permit: nothing is paid in this test
    await page.getByRole("button", { name: "Pay 13.00 USDC" }).click();
    await expect.poll(() => hook.checks.length).toBe(1);
    await expect(quoteStep).toHaveAttribute("data-status", "pending");
    await expect(page.getByTestId("step-quote-detail")).toHaveText(`Checking that ${name} is answering…`);
    await expect(page.getByTestId("step-announcement")).toHaveText(`Quote: Pending (Checking that ${name} is answering…)`);
    expect(await quoteHeight(page)).toBe(height);

    hook.release();
    await expect(quoteStep).toHaveAttribute("data-status", "confirmed");
    await expect(page.getByTestId("step-quote-detail")).toHaveText(new RegExp(`^${name} answered in \\d+ ms\\. Valid until `));
    expect(await quoteHeight(page)).toBe(height);
    expect(JSON.parse(hook.checks[0])).toMatchObject({ type: "health_check", agentId: id });
    const [check] = await sql<{ trigger: string; ok: boolean }>("SELECT trigger, ok FROM health_checks WHERE agent_id = $1", [id]);
    expect(check).toEqual({ trigger: "checkout", ok: true });
    await expect(page.getByTestId("step-permit")).toHaveAttribute("data-status", "failed");
  } finally {
    await context.close();
    await hook.close();
  }
});

test("an agent whose webhook fails its check is refused before any wallet prompt, in words, with a way on", async ({ browser }) => {
  const hook = await agentWebhook(500);
  const name = "Flaky Ledger Bot";
  const id = await agentOn(hook.url, name);
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const wallet = await installTestWallet(page, keys.renter());
  try {
    await page.goto(`/agents/${id}/rent?duration=day`);
    await page.getByRole("button", { name: `Connect with ${TEST_WALLET_NAME}` }).click();
    await expect(page.getByTestId("usdc-balance")).toBeVisible();
    const height = await quoteHeight(page);
    await page.getByRole("button", { name: "Pay 13.00 USDC" }).click();

    const quoteStep = page.getByTestId("step-quote");
    await expect(quoteStep).toHaveAttribute("data-status", "failed");
    const words = `"${name}" is not answering right now. Nothing was charged: try again later, or pick another agent.`;
    await expect(quoteStep).toContainText(words);
    await expect(page.getByTestId("step-announcement")).toHaveText(`Quote failed: ${words}`);
    expect(await quoteHeight(page)).toBe(height);
    await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Pick another agent" })).toHaveAttribute("href", "/");
    expect(wallet.prompts).toEqual([]);

    // The agent went offline as a failed scheduled check would take it, and its owner was told once.
    const [agent] = await sql<{ status: string }>("SELECT status::text FROM agents WHERE id = $1", [id]);
    expect(agent.status).toBe("offline");
    const emails = await sql<{ count: number }>(
      "SELECT count(*)::int AS count FROM emails WHERE idempotency_key LIKE 'agent-offline:' || $1 || ':%'",
      [id],
    );
    expect(emails[0].count).toBe(1);
    // Retry now meets the listing offline, and says so.
    await page.getByRole("button", { name: "Retry" }).click();
    await expect(quoteStep).toContainText("is not available for rent right now");
    expect(hook.checks).toHaveLength(1);
  } finally {
    await context.close();
    await hook.close();
  }
});
