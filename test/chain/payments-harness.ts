// The payments tests' world: a private anvil with TestUSDC and RentalEscrow (distinct admin,
// signer, operator, arbiter and treasury accounts), the service's chain settings pointed at it,
// fresh renters and payable agents, and the steps a browser wallet takes at checkout.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, type Hex, type PrivateKeyAccount, parseSignature, toHex } from "viem";
import { generatePrivateKey, type HDAccount, privateKeyToAccount } from "viem/accounts";
import { permitTypes } from "@/lib/chain/permit-typed-data";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { quoteRental } from "@/lib/rentals/quote-rental";
import type { AgentListingInput } from "@/lib/schemas/agent-listing";
import { makeAgent } from "@/test/fixtures";
import { connect, startAnvil } from "./anvil";
import { admin, arbiter, deployEscrow, escrowAbi, FEE, operator, other, signer, treasury } from "./escrow";

export { admin, arbiter, escrowAbi, FEE, operator, other, signer, treasury };

export const CRON_SECRET = `payments-cron-${randomBytes(8).toString("hex")}`;
export const USDC = 1_000_000n;

export const privateKeyOf = (account: HDAccount): Hex => toHex(account.getHdKey().privateKey!);

/**
 * Starts anvil, deploys the token and the escrow, and points the service's chain settings at them.
 * `secondsBehind` winds the chain's clock back first: the release sweep completes every ended
 * rental of the shared database up to the `now` it is given, so a chain that runs hours behind the
 * wall clock leaves other test files' rentals alone.
 */
export async function startPayments(options: { secondsBehind?: number } = {}) {
  // startChain() as in anvil.ts (one second per block), keeping the RPC URL for the settings.
  const anvil = await startAnvil();
  const chain = { ...connect(anvil.rpcUrl), rpcUrl: anvil.rpcUrl, stop: anvil.stop };
  await chain.testClient.setBlockTimestampInterval({ interval: 1 });
  if (options.secondsBehind) {
    const wall = Math.floor(Date.now() / 1000);
    await chain.testClient.request({ method: "evm_setTime", params: [wall - options.secondsBehind] } as never);
    await chain.testClient.mine({ blocks: 1 });
  }
  const escrow = await deployEscrow(chain, "TestUSDC");
  Object.assign(env, {
    CHAIN_ID: chain.publicClient.chain.id,
    CHAIN_RPC_URL: chain.rpcUrl,
    USDC_ADDRESS: escrow.token,
    ESCROW_ADDRESS: escrow.escrow,
    QUOTE_SIGNER_PRIVATE_KEY: privateKeyOf(signer),
    OPERATOR_PRIVATE_KEY: privateKeyOf(operator),
    CRON_SECRET,
  });
  return { ...chain, e: escrow };
}

export type Payments = Awaited<ReturnType<typeof startPayments>>;

/** The chain's latest block time as a Date: the clock the settlement code is driven with. */
export async function chainDate(p: Payments): Promise<Date> {
  return new Date(Number(await p.now()) * 1000);
}

export type Renter = { key: Hex; account: PrivateKeyAccount; address: Address };

/** A fresh wallet with gas and USDC (1,000 USDC unless told), optionally an account with an e-mail. */
export async function newRenter(p: Payments, options: { usdc?: bigint; email?: string } = {}): Promise<Renter> {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await p.testClient.setBalance({ address: account.address, value: 10n ** 18n });
  await p.e.sendToken(admin.address, "mint", [account.address, options.usdc ?? 1_000n * USDC]);
  if (options.email) await db.account.create({ data: { walletAddress: account.address.toLowerCase(), email: options.email } });
  return { key, account, address: account.address };
}

/** A fresh address nobody holds a key for: an owner's payout wallet that starts at 0 USDC. */
export function newAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

let answering: Promise<string> | undefined;

/**
 * The URL of a webhook that answers every call 200 `{"ok":true}`: what a quote's live check
 * (probeBeforeQuote) needs to pass. One per test process, on 127.0.0.1 (the tests set
 * ALLOW_PRIVATE_WEBHOOKS=1); unref'd, so it never keeps a worker alive.
 */
export function answeringWebhookUrl(): Promise<string> {
  answering ??= new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/agent`);
    });
  });
  return answering;
}

/**
 * An agent that can be quoted: available, webhook connected (one that answers the quote's live
 * check with 200), prices 2 / 10 / 100 USDC, and an owner with a fresh payout wallet. Options take
 * each of those away.
 */
export async function makePayableAgent(
  options: {
    listing?: Partial<AgentListingInput>;
    offline?: boolean;
    // false: none connected; a URL: that webhook; otherwise one that answers 200 (answeringWebhookUrl).
    webhook?: boolean | string;
    // The listing's Standard Webhooks secret (whsec_…), to verify what its webhook received.
    signingSecret?: string;
    wallet?: boolean;
  } = {},
) {
  const url = typeof options.webhook === "string" ? options.webhook : await answeringWebhookUrl();
  const agent = await makeAgent({
    webhook:
      options.webhook === false
        ? undefined
        : { url, token: randomBytes(24).toString("base64url"), ...(options.signingSecret ? { signingSecret: options.signingSecret } : {}) },
    listing: options.listing,
  });
  if (options.offline) await db.agent.update({ where: { id: agent.id }, data: { status: "offline" } });
  const payout = newAddress();
  if (options.wallet !== false) {
    await db.account.update({ where: { id: agent.ownerId }, data: { walletAddress: payout.toLowerCase() } });
  }
  return { agent, payout };
}

export type Quoted = Awaited<ReturnType<typeof quoteRental>>;

/** What a browser wallet does with a quote: approve + createRental, or one createRentalWithPermit. */
export async function pay(p: Payments, renter: Renter, quoted: Pick<Quoted, "quote" | "signature">, how: "approve" | "permit" = "approve") {
  const { quote, signature } = quoted;
  const total = quote.price + quote.fee;
  let hash: Hex;
  if (how === "approve") {
    await send(p, renter, p.e.token, p.e.tokenAbi, "approve", [p.e.escrow, total]);
    hash = await p.walletClient.writeContract({
      account: renter.account,
      address: p.e.escrow,
      abi: escrowAbi,
      functionName: "createRental",
      args: [quote, signature],
    });
  } else {
    const permit = await signPermit(p, renter, total, quote.deadline);
    hash = await p.walletClient.writeContract({
      account: renter.account,
      address: p.e.escrow,
      abi: escrowAbi,
      functionName: "createRentalWithPermit",
      args: [quote, signature, quote.deadline, permit.v, permit.r, permit.s],
    });
  }
  const receipt = await p.mined(hash);
  if (receipt.status !== "success") throw new Error(`payment ${hash} reverted`);
  return receipt;
}

/** The renter's EIP-2612 permit of `value` to the escrow until `deadline` (what a browser wallet signs), as v, r, s. */
export async function signPermit(p: Payments, renter: Renter, value: bigint, deadline: bigint) {
  const [, name, version] = (await p.publicClient.readContract({
    address: p.e.token,
    abi: p.e.tokenAbi,
    functionName: "eip712Domain",
  } as never)) as readonly [Hex, string, string];
  const nonce = (await p.publicClient.readContract({
    address: p.e.token,
    abi: p.e.tokenAbi,
    functionName: "nonces",
    args: [renter.address],
  } as never)) as bigint;
  const permit = parseSignature(
    await renter.account.signTypedData({
      domain: { name, version, chainId: p.publicClient.chain.id, verifyingContract: p.e.token },
      types: permitTypes,
      primaryType: "Permit",
      message: { owner: renter.address, spender: p.e.escrow, value, nonce, deadline },
    }),
  );
  return { v: Number(permit.v), r: permit.r, s: permit.s };
}

/** A transaction from a fresh (non-anvil) wallet, waited for. */
export async function send(
  p: Payments,
  from: Renter,
  address: Address,
  abi: readonly unknown[],
  functionName: string,
  args: readonly unknown[],
  gas?: bigint,
) {
  const hash = await p.walletClient.writeContract({
    account: from.account,
    address,
    abi,
    functionName,
    args,
    gas,
  } as never);
  return p.mined(hash);
}

/** The block time of a transaction, as the service stores it. */
export async function blockTimeOf(p: Payments, hash: Hex): Promise<bigint> {
  const receipt = await p.publicClient.getTransactionReceipt({ hash });
  return (await p.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
}

export const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

/** POST a JSON body to a checkout route handler from a given client IP. */
export function checkoutRequest(
  path: "quote" | "confirm",
  body: unknown,
  ip: string,
  init: { rawBody?: string; contentType?: string } = {},
) {
  return new Request(`http://localhost/api/checkout/${path}`, {
    method: "POST",
    headers: { "content-type": init.contentType ?? "application/json", "x-forwarded-for": ip },
    body: init.rawBody ?? JSON.stringify(body),
  });
}

export function cronRequest(path: "release-rentals" | "sync-escrow", authorization?: string) {
  return new Request(`http://localhost/api/cron/${path}`, { headers: authorization ? { authorization } : {} });
}
