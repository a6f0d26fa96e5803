// Payouts an owner can act on (issue 12's problem 9): the history of releases with their
// transactions, and a credit withdrawn with the Withdraw stepper instead of `cast send`.
import { expect, test } from "@playwright/test";
import { createTestClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import type { EchoAgent } from "../scripts/echo-agent";
import { afterRentalsEnd, baseUrl, creditOnEscrow, keys, listAgentWithCli, operatorCli, runCron, sql, usdcBalance } from "./stack";
import { installTestWallet } from "./test-wallet";

const ownerKey = generatePrivateKey();
const owner = privateKeyToAccount(ownerKey);
let echo: EchoAgent;
let agentId: string;

test.beforeAll(async () => {
  // A wallet of its own, with ETH for the withdrawal's gas.
  await createTestClient({ chain: foundry, mode: "anvil", transport: http(process.env.E2E_RPC_URL) }).setBalance({
    address: owner.address,
    value: parseEther("1"),
  });
  ({ agentId, echo } = await listAgentWithCli(owner.address, ["--name", "Ledger Keeper", "--price-hour", "3"]));
  await operatorCli(["rental:checkout", "--agent", agentId, "--duration", "hour"], { RENTER_PRIVATE_KEY: keys.renter() });
  await afterRentalsEnd(agentId, 2 * 3600, () => runCron("release-rentals"));
});

test.afterAll(async () => {
  await echo?.close();
});

test("the owner sees each release with its transaction, and withdraws a credit from the page", async ({ browser }) => {
  const [release] = await sql<{ hash: string }>(
    "SELECT t.hash FROM rentals r JOIN chain_transactions t ON t.id = r.release_tx_id WHERE r.agent_id = $1",
    [agentId],
  );
  await creditOnEscrow(owner.address, 1_250_000n);

  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, ownerKey);
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await page.waitForURL("**/dashboard");
  await page.goto("/dashboard/payouts");

  const history = page.getByRole("region", { name: "History" });
  const row = history.getByRole("row").filter({ hasText: "Ledger Keeper" });
  await expect(row).toContainText("3.00 USDC");
  await expect(row).toContainText("Paid to you");
  await expect(row).toContainText(release.hash); // the local chain has no explorer: the full hash

  const before = await usdcBalance(owner.address);
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("button", { name: "Withdraw 1.25 USDC" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Withdrawn: 1.25 USDC is in your wallet." })).toBeVisible();
  expect((await usdcBalance(owner.address)) - before).toBe(1_250_000n);
  // The page refreshed its figures: nothing is left to withdraw.
  await expect(page.getByText("Nothing to withdraw: every payout reached your wallet.")).toBeVisible();
  await context.close();
});
