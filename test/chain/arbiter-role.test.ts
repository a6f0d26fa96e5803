// The arbiter role read on chain at every request, on a real anvil and escrow: a wallet granted
// ARBITER_ROLE signs in and its console shows the disputes and a decision goes through; the role
// revoked on chain, the very same session's next page request and next decision are refused, with
// no new sign-in; granted again, it works again. Also: an e-mail session of the same account
// never counts, and a chain that does not answer shows nothing.
import { renderToStaticMarkup } from "react-dom/server";
import { keccak256, toBytes } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mock } from "wagmi";
import { connect } from "wagmi/actions";
import { createSession } from "@/lib/auth/create-session";
import { escrowChain } from "@/lib/chain/escrow-chain";
import { createEscrowWalletConfig } from "@/lib/chain/escrow-wallet";
import { db } from "@/lib/db";
import { describeDecisionError, sendDecision } from "@/lib/disputes/decide-dispute";
import { env } from "@/lib/env";
import { signInWithWallet } from "@/test/auth-fixtures";
import { cookieJar, mockedCookies } from "@/test/dashboard-session";
import { isolateDatabase } from "@/test/private-database";
import { Status } from "./escrow";
import { admin, escrowAbi, other, type Payments, privateKeyOf, send, startPayments } from "./payments-harness";
import { type Paid, paidRental } from "./settlement-helpers";

// The console lists every open dispute and the event reader keeps one cursor: this file's alone.
isolateDatabase("arbiter_role");

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("next/navigation", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/navigation")>()),
  usePathname: () => "/dashboard/disputes",
}));

const { syncEscrowEvents } = await import("@/lib/chain/sync-escrow-events");
const { resolveDisputeWithKey } = await import("@/lib/disputes/resolve-dispute-with-key");
const { default: Layout } = await import("@/app/dashboard/layout");
const { default: DisputesPage } = await import("@/app/dashboard/disputes/page");

const ARBITER_ROLE = keccak256(toBytes("ARBITER_ROLE"));
// An anvil account with no role of its own: the arbiter-to-be (wagmi's mock connector sends its
// transactions through anvil, which holds its key).
const wallet = other;
const walletKey = privateKeyOf(other);

let p: Payments;
beforeAll(async () => {
  p = await startPayments();
});
afterAll(() => p?.stop());

/** A rental paid and disputed on chain, read into the database by the event reader; with its reference (what the console shows). */
async function disputedRental(): Promise<Paid & { ref: string }> {
  const r = await paidRental(p);
  await send(p, r.renter, p.e.escrow, escrowAbi, "openDispute", [r.chainId]);
  expect(await syncEscrowEvents()).toMatchObject({ disputed: 1 });
  return { ...r, ...(await db.rental.findUniqueOrThrow({ where: { id: r.id }, select: { ref: true } })) };
}

const setRole = (fn: "grantRole" | "revokeRole") => p.e.send(admin.address, fn, [ARBITER_ROLE, wallet.address]);
const menu = async () => renderToStaticMarkup(await Layout({ children: null }));
const consolePage = async () => renderToStaticMarkup(await DisputesPage({ searchParams: Promise.resolve({}) }));
const showsConsole = (html: string, r: { ref: string }) => html.includes(`rental ${r.ref}`) && html.includes("Your decision");
const disputesLink = 'href="/dashboard/disputes"';

/** The decision as the console's stepper sends it: the signed-in wallet, simulated, then sent. */
async function decide(r: Paid, refund: bigint) {
  const chain = escrowChain()!;
  const config = createEscrowWalletConfig(chain, { connector: mock({ accounts: [wallet.address] }) })!;
  await connect(config, { connector: config.connectors[0] });
  try {
    return await sendDecision(config, chain, {
      escrowId: r.chainId,
      decision: { kind: "resolve", refund: String(refund) },
      account: wallet.address,
    });
  } catch (error) {
    return { ok: false as const, message: describeDecisionError(error, chain) };
  }
}

describe("the arbiter role, read on chain at every request", () => {
  it("granted: menu, console and decision; revoked: the same session's next request and decision refused; granted again: back", async () => {
    const [first, second] = [await disputedRental(), await disputedRental()];
    await setRole("grantRole");
    const { cookie } = await signInWithWallet(privateKeyToAccount(walletKey));
    cookieJar.value = cookie.slice("ars_session=".length);

    expect(await menu()).toContain(disputesLink);
    const granted = await consolePage();
    expect(showsConsole(granted, first) && showsConsole(granted, second)).toBe(true);
    expect(await decide(first, 0n)).toMatchObject({ ok: true });
    expect(await syncEscrowEvents()).toMatchObject({ completed: 0 });
    expect((await db.rental.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("active");

    // Revoked on chain; the browser keeps its cookie and signs in again never.
    await setRole("revokeRole");
    const revoked = await consolePage();
    expect(revoked).toContain("This page is for the escrow&#x27;s arbiters.");
    expect(revoked).not.toContain(second.ref);
    expect(revoked).not.toContain("Your decision");
    expect(await menu()).not.toContain(disputesLink);
    expect(await decide(second, 0n)).toEqual({
      ok: false,
      message: "This wallet is not an arbiter of the escrow, so it cannot decide disputes.",
    });
    // The operators' command with the same wallet's key is refused by the escrow's simulation too.
    await expect(resolveDisputeWithKey({ rentalRef: second.ref, refundMicro: 0n, arbiterKey: walletKey })).rejects.toThrow(
      "ARBITER_PRIVATE_KEY's wallet does not hold ARBITER_ROLE on the escrow.",
    );
    expect((await p.e.rental(second.chainId)).status).toBe(Status.Disputed);

    // Granted again: the same session has the console back at its next request.
    await setRole("grantRole");
    expect(showsConsole(await consolePage(), second)).toBe(true);
    expect(await menu()).toContain(disputesLink);
    await setRole("revokeRole");
  });

  it("an e-mail session of the arbiter wallet's account never counts: only a wallet sign-in proves the wallet", async () => {
    const r = await disputedRental();
    await setRole("grantRole");
    const bySignature = await signInWithWallet(privateKeyToAccount(walletKey));
    await db.account.update({ where: { id: bySignature.accountId }, data: { email: `arbiter-${r.id}@example.com` } });
    const byEmail = await createSession(bySignature.accountId, { method: "email" });
    cookieJar.value = /^ars_session=([^;]*)/.exec(byEmail.cookie)![1];
    expect(await consolePage()).not.toContain(r.ref);
    expect(await menu()).not.toContain(disputesLink);
    cookieJar.value = bySignature.cookie.slice("ars_session=".length);
    expect(showsConsole(await consolePage(), r)).toBe(true);
    await setRole("revokeRole");
  });

  it("a chain that does not answer: the console says so and shows nothing, the menu leaves Disputes out", async () => {
    const r = await disputedRental();
    await setRole("grantRole");
    const { cookie } = await signInWithWallet(privateKeyToAccount(walletKey));
    cookieJar.value = cookie.slice("ars_session=".length);
    const rpcUrl = env.CHAIN_RPC_URL;
    Object.assign(env, { CHAIN_RPC_URL: "http://127.0.0.1:9" }); // the discard port: refused at once
    try {
      const page = await consolePage();
      expect(page).toContain("The chain did not answer, so your arbiter role could not be checked");
      expect(page).not.toContain(r.ref);
      expect(await menu()).not.toContain(disputesLink);
    } finally {
      Object.assign(env, { CHAIN_RPC_URL: rpcUrl });
    }
    expect(showsConsole(await consolePage(), r)).toBe(true);
    await setRole("revokeRole");
  });
});
