// The checkout with a wallet that is not ready: on another network, short of USDC, and a renter
// who declines the signature once. Each state is said in words before any transaction, and the
// payment still completes after a retry.
import { expect, test } from "@playwright/test";
import { privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { baseUrl, keys, listAgentWithCli, mintUsdc, usdcBalance } from "./stack";
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
