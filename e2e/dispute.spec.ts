// A renter disputes a running rental from the dashboard: one transaction from the paying wallet
// through the stepper, the event reader marks the rental disputed, and the release sweep leaves
// its payment frozen in the escrow after the rental ends.
import { expect, test } from "@playwright/test";
import { privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { afterRentalsEnd, baseUrl, keys, listAgentWithCli, operatorCli, runCron, sql, usdcBalance } from "./stack";
import { installTestWallet } from "./test-wallet";

const ownerWallet = privateKeyToAccount(`0x${"22".repeat(32)}`).address;
let echo: EchoAgent;
let agentId: string;
let rentalId: string;

test.beforeAll(async () => {
  ({ agentId, echo } = await listAgentWithCli(ownerWallet, ["--name", "Flaky Translator", "--price-hour", "4"]));
  // Paid on chain from the renter's wallet, as the checkout would (docs/cli.md, rental:checkout).
  const rental = await operatorCli(["rental:checkout", "--agent", agentId, "--duration", "hour"], {
    RENTER_PRIVATE_KEY: keys.renter(),
  });
  rentalId = String(rental.id);
});

test.afterAll(async () => {
  await echo?.close();
});

test("a renter opens a dispute on chain from the dashboard; the payment stays in escrow after the rental ends", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const wallet = await installTestWallet(page, keys.renter());
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await page.waitForURL("**/dashboard");

  await page.goto(`/dashboard/rentals/${rentalId}`);
  // Pressing it loads the wallet code and connects at once (step 1).
  await page.getByRole("button", { name: "Open a dispute…" }).click();
  await expect(page.getByText(new RegExp(`^Connected as ${wallet.address.slice(0, 6)}`))).toBeVisible();
  await page.getByRole("button", { name: "Open the dispute" }).click();
  await expect(page.getByRole("button", { name: "Reload to see the new status" })).toBeVisible({ timeout: 30_000 });
  expect(wallet.prompts.filter((p) => p === "eth_sendTransaction")).toHaveLength(1);

  // The event reader (a cron every minute) records the on-chain dispute.
  await runCron("sync-escrow");
  await page.getByRole("button", { name: "Reload to see the new status" }).click();
  await expect(page.getByText("You opened a dispute.")).toBeVisible();
  await expect(page.getByLabel(/^Message to/)).toBeDisabled();

  await afterRentalsEnd(agentId, 2 * 3600, async () => {
    const summary = (await runCron("release-rentals")) as { claimed: number };
    expect(summary.claimed).toBe(0);
    const [rental] = await sql<{ status: string }>("SELECT status FROM rentals WHERE id = $1", [rentalId]);
    expect(rental.status).toBe("disputed");
    expect(await usdcBalance(ownerWallet)).toBe(0n);
  });
  await context.close();
});
