// Disputes from opening to money back. A renter disputes with a reason from the dashboard; the
// owner is told, sees the reason and the evidence on the listing and answers in words, which the
// renter and the arbiter read; an arbiter decides a partial refund in the console, which then keeps
// it under Decided; the dashboards and the chain then agree to the micro-USDC. And a dispute stays
// frozen through the release sweep until an operator decides it from the CLI.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { createPublicClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import * as RentalEscrow from "../lib/chain/generated/RentalEscrow";
import type { EchoAgent } from "../scripts/echo-agent";
import { capturePages } from "./capture-pages";
import { afterRentalsEnd, baseUrl, keys, listAgentWithCli, operatorCli, runCron, sql, usdcBalance } from "./stack";
import { installTestWallet } from "./test-wallet";

// One owner per test: an owner account's wallet is unique.
const ownerKey: Hex = `0x${"22".repeat(32)}`;
const ownerWallet = privateKeyToAccount(ownerKey).address;
const secondOwnerWallet = privateKeyToAccount(`0x${"24".repeat(32)}`).address;
const USDC = 1_000_000n;
const echoes: EchoAgent[] = [];

test.afterAll(async () => {
  for (const echo of echoes) await echo.close();
});

async function rentedAgent(name: string, payout: Hex) {
  const { agentId, echo } = await listAgentWithCli(payout, ["--name", name, "--price-hour", "4"]);
  echoes.push(echo);
  const rental = await operatorCli(["rental:checkout", "--agent", agentId, "--duration", "hour"], {
    RENTER_PRIVATE_KEY: keys.renter(),
  });
  return { agentId, rentalId: String(rental.id) };
}

/** The rental's reference: what the owner and the arbiter know it by. */
async function refOf(rentalId: string): Promise<string> {
  return (await sql<{ ref: string }>("SELECT ref FROM rentals WHERE id = $1", [rentalId]))[0].ref;
}

/** A page as the server sends it (the HTML and the React payload inside it) holds no part of the rental's id. */
async function expectNoRentalCode(context: BrowserContext, path: string, rentalId: string) {
  const html = (await (await context.request.get(path)).text()).toLowerCase();
  expect(html.length).toBeGreaterThan(1000);
  const hex = rentalId.replaceAll("-", "");
  for (let i = 0; i + 8 <= hex.length; i += 4) expect(html, `${path} holds ${hex.slice(i, i + 8)}`).not.toContain(hex.slice(i, i + 8));
  expect(html).not.toContain(rentalId);
}

async function signedIn(browser: import("@playwright/test").Browser, key: Hex): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, key);
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await page.waitForURL("**/dashboard");
  return { context, page };
}

test("a renter disputes with a reason, the owner sees it, an arbiter refunds part; dashboards and chain agree", async ({
  browser,
}, testInfo) => {
  const { agentId, rentalId } = await rentedAgent("Flaky Translator", ownerWallet);
  const code = rentalId.slice(0, 8);
  const ref = await refOf(rentalId);
  const renterWallet = privateKeyToAccount(keys.renter()).address;
  // Ten minutes into the rental (the database's view; the chain's window is unchanged), the agent
  // was down from minute 1 to minute 4 by its health checks: 3 of 60 minutes, so the suggested
  // refund is 3/60 of the 4 USDC price.
  await sql("UPDATE rentals SET starts_at = starts_at - interval '10 minutes', ends_at = ends_at - interval '10 minutes' WHERE id = $1", [
    rentalId,
  ]);
  await sql(
    `INSERT INTO health_checks (agent_id, ok, status_code, error, latency_ms, trigger, created_at)
     SELECT agent_id, false, NULL, 'timeout', 5000, 'schedule', starts_at + interval '1 minute' FROM rentals WHERE id = $1
     UNION ALL
     SELECT agent_id, true, 200, NULL, 40, 'schedule', starts_at + interval '4 minutes' FROM rentals WHERE id = $1`,
    [rentalId],
  );

  // The renter says why, then sends openDispute from the paying wallet.
  const renter = await signedIn(browser, keys.renter());
  await renter.page.goto(`/dashboard/rentals/${rentalId}`);
  await renter.page.getByRole("button", { name: "Open a dispute…" }).click();
  await renter.page.getByRole("radio", { name: "The agent is not responding" }).check();
  await renter.page.getByLabel("Details").fill("It stopped answering a minute in; every message timed out.");
  await renter.page.getByRole("button", { name: "Continue to the wallet" }).click();
  await renter.page.getByRole("button", { name: "Open the dispute" }).click();
  await expect(renter.page.getByText(/^Dispute opened: the payment is frozen on chain\./)).toBeVisible({ timeout: 30_000 });
  // The page follows by itself once the event reader has recorded the dispute: no reload, no
  // button (the mark set on this document is still there afterwards).
  await renter.page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await runCron("sync-escrow");
  await expect(renter.page.getByText("You opened a dispute (the agent is not responding).")).toBeVisible();
  await expect(renter.page.getByRole("status").filter({ hasText: "This rental is now disputed." })).toHaveCount(1);
  await expect(renter.page.getByRole("textbox", { name: "Message to Flaky Translator" })).toBeDisabled();
  expect(await renter.page.evaluate(() => "sameDocument" in window)).toBe(true);

  // The owner is told, and sees the reason, the details and the evidence on the listing.
  const owner = await signedIn(browser, ownerKey);
  await owner.page.goto("/dashboard/notifications");
  await owner.page.getByRole("link", { name: /^View the dispute\s*: A renter disputed a rental of "Flaky Translator"$/ }).click();
  await owner.page.waitForURL(`**/dashboard/agents/${agentId}#disputes`);
  const ownerView = owner.page.getByRole("article", { name: `Rental ${ref}: open dispute` });
  await expect(ownerView.getByText("The agent is not responding.")).toBeVisible();
  await expect(ownerView.getByText("It stopped answering a minute in; every message timed out.")).toBeVisible();
  await ownerView.getByText("Health checks and messages").click();
  await expect(ownerView.getByRole("cell", { name: "Failed: timeout" })).toBeVisible();
  await expect(ownerView.getByRole("button", { name: "Accept the dispute…" })).toBeVisible();
  // Nothing the owner is shown unlocks the rental: the listing and the notifications name it by
  // its reference only.
  await expectNoRentalCode(owner.context, `/dashboard/agents/${agentId}`, rentalId);
  await expectNoRentalCode(owner.context, "/dashboard/notifications", rentalId);
  await expectNoRentalCode(owner.context, `/dashboard/agents/${agentId}/deliveries`, rentalId);

  // The owner answers in words (shown as text, never as markup), then changes the answer: the
  // renter is told once, and reads the answer as it is now on the rental's page.
  const firstAnswer = "The agent was restarted at minute 4.";
  const answer = "The agent was restarted at minute 4; <b>every</b> check since then passed.";
  await ownerView.getByLabel("Your answer").fill(firstAnswer);
  await ownerView.getByRole("button", { name: "Send the answer" }).click();
  await expect(ownerView.getByText("Answer sent. The renter is told, and the arbiter reads it beside the renter's reason.")).toBeVisible();
  await ownerView.getByLabel("Your answer").fill(answer);
  await ownerView.getByRole("button", { name: "Save the changed answer" }).click();
  await expect(ownerView.getByText("Answer changed. The renter and the arbiter now read the new words.")).toBeVisible();
  await expect(ownerView.getByLabel("Your answer")).toHaveValue(answer);
  expect(await sql("SELECT 1 FROM notifications WHERE rental_id = $1 AND kind = 'dispute-answered'", [rentalId])).toHaveLength(1);
  // The form's action carries the listing and the reference, never the rental's id.
  await expectNoRentalCode(owner.context, `/dashboard/agents/${agentId}`, rentalId);
  await renter.page.reload();
  await expect(renter.page.getByText(answer)).toBeVisible();

  // The operators' list has it, with the owner's answer and the same suggestion the console prefills.
  const listed = (await operatorCli(["dispute:list"])) as unknown as { rental: string; suggested_refund_usdc: string; reason: string }[];
  expect(listed.find((d) => d.rental === ref)).toMatchObject({
    renter: renterWallet.toLowerCase(),
    reason: "The agent is not responding",
    owner_answer: answer,
    suggested_refund_usdc: "0.2",
  });

  // The arbiter (ARBITER_ROLE, read on chain at every request) refunds 1.5 of the 4 USDC.
  const arbiter = await signedIn(browser, keys.arbiter());
  await arbiter.page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Disputes" }).click();
  const panel = arbiter.page.getByRole("region", { name: `Flaky Translator, rental ${ref}` });
  await expect(panel.getByText("It stopped answering a minute in; every message timed out.")).toBeVisible();
  await expect(panel.getByText(answer)).toBeVisible();
  await expect(panel.getByText(renterWallet.toLowerCase())).toBeVisible();
  await expectNoRentalCode(arbiter.context, "/dashboard/disputes", rentalId);
  await expect(panel.getByText("3 minutes 0 seconds")).toBeVisible();
  await expect(panel.getByLabel("Partial refund (USDC)")).toHaveValue("0.2");
  // The three views of an open dispute, at both widths: nothing wider than a phone, axe clean.
  await capturePages(browser, testInfo, [
    { context: renter.context, pages: { "dispute-renter": `/dashboard/rentals/${rentalId}` } },
    { context: owner.context, pages: { "dispute-owner": `/dashboard/agents/${agentId}` } },
    { context: arbiter.context, pages: { "dispute-arbiter": "/dashboard/disputes" } },
  ]);
  const renterBefore = await usdcBalance(renterWallet);
  const ownerBefore = await usdcBalance(ownerWallet);
  await panel.getByLabel("Partial refund (USDC)").fill("1.5");
  await panel.getByRole("button", { name: "Refund part" }).click();
  await expect(panel.getByText(/^Connected as 0x/)).toBeVisible();
  await panel.getByRole("button", { name: "Send the decision" }).click();
  await expect(panel.getByRole("button", { name: "Reload to see the outcome" })).toBeVisible({ timeout: 30_000 });
  await runCron("sync-escrow");

  // The chain: the renter got 1.5, the owner the other 2.5; the database agrees.
  expect((await usdcBalance(renterWallet)) - renterBefore).toBe(1_500_000n);
  expect((await usdcBalance(ownerWallet)) - ownerBefore).toBe(2_500_000n);
  const [row] = await sql<{ status: string; dispute_refund_micro_usdc: string }>(
    "SELECT status, dispute_refund_micro_usdc FROM rentals WHERE id = $1",
    [rentalId],
  );
  expect(row).toEqual({ status: "completed", dispute_refund_micro_usdc: String(15n * (USDC / 10n)) });
  const status = await fetch(`${baseUrl()}/api/v1/status`, { headers: { "X-API-Key": code } }).then((r) => r.json());
  expect(status.rental.status).toBe("completed");

  // The dashboards say the same amounts.
  await renter.page.reload();
  await expect(renter.page.getByText("Dispute decided: partial refund.")).toBeVisible();
  await expect(renter.page.getByText(/1\.50 USDC of the 4\.00 USDC price went back to your wallet/)).toBeVisible();
  await expect(renter.page.getByRole("definition").filter({ hasText: /^1\.50 USDC$/ })).toBeVisible();
  await owner.page.reload();
  await expect(owner.page.getByText(/1\.50 USDC went back to the renter and 2\.50 USDC was paid to you/)).toBeVisible();
  await owner.page.goto("/dashboard/notifications");
  await expect(owner.page.getByRole("heading", { name: "Unread: Dispute decided: partial refund" })).toBeVisible();
  await arbiter.page.reload();
  await expect(arbiter.page.getByRole("region", { name: `Flaky Translator, rental ${ref}` })).toHaveCount(0);
  // The console keeps it under Decided, with the outcome, when, the transaction and both sides' words.
  const decided = arbiter.page.getByRole("region", { name: "Decided" }).getByRole("article", { name: `Flaky Translator, rental ${ref}` });
  await expect(decided.getByText("Dispute decided: partial refund.")).toBeVisible();
  await expect(
    decided.getByText(
      "The arbiter decided the dispute with a partial refund: 1.50 USDC of the 4.00 USDC price went back to the renter and 2.50 USDC was paid to the owner.",
    ),
  ).toBeVisible();
  const [{ resolve_tx_hash }] = await sql<{ resolve_tx_hash: string }>("SELECT resolve_tx_hash FROM disputes WHERE rental_id = $1", [
    rentalId,
  ]);
  await expect(decided.getByText(resolve_tx_hash)).toBeVisible();
  await expect(decided.getByText(renterWallet.toLowerCase())).toBeVisible();
  await expect(decided.getByText("It stopped answering a minute in; every message timed out.")).toBeVisible();
  await expect(decided.getByText(answer)).toBeVisible();
  await expectNoRentalCode(arbiter.context, "/dashboard/disputes", rentalId);
  await capturePages(browser, testInfo, [{ context: arbiter.context, pages: { "dispute-arbiter-decided": "/dashboard/disputes" } }]);
  for (const side of [renter, owner, arbiter]) await side.context.close();
});

test("a disputed rental stays frozen through the sweep; an operator releases it from the CLI after the end", async () => {
  const { agentId, rentalId } = await rentedAgent("Slow Summarizer", secondOwnerWallet);
  const [{ escrow_id }] = await sql<{ escrow_id: Hex }>("SELECT escrow_id FROM rentals WHERE id = $1", [rentalId]);
  // Opened straight on chain (a wallet, no site): the owner still learns of it, without a reason.
  const transport = http(process.env.E2E_RPC_URL);
  const wallet = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(keys.renter()) });
  const hash = await wallet.writeContract({
    address: process.env.E2E_ESCROW as Hex,
    abi: RentalEscrow.abi,
    functionName: "openDispute",
    args: [escrow_id],
  });
  await createPublicClient({ chain: foundry, transport }).waitForTransactionReceipt({ hash });
  await runCron("sync-escrow");
  const [notice] = await sql<{ body: string }>("SELECT body FROM notifications WHERE rental_id = $1 AND kind = 'dispute-opened'", [
    rentalId,
  ]);
  expect(notice.body).toContain("No reason given (opened directly on chain)");

  await afterRentalsEnd(agentId, 2 * 3600, async () => {
    const summary = (await runCron("release-rentals")) as { claimed: number };
    expect(summary.claimed).toBe(0);
    expect((await sql<{ status: string }>("SELECT status FROM rentals WHERE id = $1", [rentalId]))[0].status).toBe("disputed");
    const ownerBefore = await usdcBalance(secondOwnerWallet);
    const ref = await refOf(rentalId);
    const decided = await operatorCli(["dispute:resolve", "--rental", ref, "--refund", "0"], { ARBITER_PRIVATE_KEY: keys.arbiter() });
    expect(decided).toMatchObject({ rental: ref, refund: "0.00 USDC", toOwner: "4.00 USDC", status: "completed" });
    expect((await usdcBalance(secondOwnerWallet)) - ownerBefore).toBe(4n * USDC);
  });
});
