import "server-only";
import { type Hex, verifyMessage } from "viem";
import { parseSiweMessage, type SiweMessage, validateSiweMessage } from "viem/siwe";
import { SIWE_NONCE_PATTERN } from "@/lib/auth/issue-siwe-nonce";
import { configuredChainClients } from "@/lib/chain/chain-clients";
import { chainName } from "@/lib/chain/public-chain-settings";
import { db } from "@/lib/db";
import { appUrl, env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

export type SiweSignIn = {
  message: string;
  signature: Hex;
  /** The request's Host header: the expected domain when APP_URL is not set (development). */
  requestHost: string | null;
  now?: Date;
};

const accountSelect = { id: true, email: true, walletAddress: true, createdAt: true } as const;

/**
 * The domain a message must name: APP_URL's host when it is set (production must set it: a Host
 * header is whatever the client sends, so trusting it would let a phishing site replay a
 * message written for itself), otherwise the host the browser used (localhost:3000, 127.0.0.1…).
 */
export function expectedSiweDomain(requestHost: string | null): string {
  if (env.APP_URL) return new URL(env.APP_URL).host;
  return (requestHost ?? new URL(appUrl()).host).toLowerCase();
}

/**
 * The chain id a message must name: CHAIN_ID, the chain payments and smart-contract wallet
 * signatures are checked on (the sign-in page writes it into the message). null without a chain
 * configured: then there is no chain to bind the session to, and any id is accepted.
 */
export function expectedSiweChainId(): number | null {
  return env.CHAIN_ID ?? null;
}

/**
 * Checks a signed EIP-4361 message and returns the wallet's account (created on first sign-in).
 * Order: the message's own fields (domain, URI, chain id, times), then the nonce, spent atomically
 * before the signature is checked (a nonce gets exactly one try), then the signature.
 */
export async function verifySiweSignIn({ message, signature, requestHost, now = new Date() }: SiweSignIn) {
  const domain = expectedSiweDomain(requestHost);
  const fields = parseFields(message);
  checkFields(fields, domain, now);
  // viem's own validator as the last word on domain, nonce, time and address.
  if (!validateSiweMessage({ message: fields, domain: fields.domain, nonce: fields.nonce, time: now })) {
    throw new ApiError(401, "The sign-in message did not pass validation; sign a new one.");
  }
  await spendNonce(fields.nonce, now);
  if (!(await signatureIsValid({ fields, message, signature, domain, now }))) {
    throw new ApiError(401, `The signature does not match the message: it was not signed by ${fields.address}.`);
  }
  const walletAddress = fields.address.toLowerCase();
  // Native INSERT … ON CONFLICT: two first sign-ins at once still make one account.
  return db.account.upsert({ where: { walletAddress }, create: { walletAddress }, update: {}, select: accountSelect });
}

type Fields = SiweMessage;

function parseFields(message: string): Fields {
  const parsed = parseSiweMessage(message);
  const missing = (["domain", "address", "uri", "version", "chainId", "nonce", "issuedAt"] as const).filter((k) => parsed[k] === undefined);
  if (missing.length) {
    throw new ApiError(
      400,
      `message: not a Sign-In with Ethereum (EIP-4361) message; ${missing.includes("domain") || missing.includes("address") ? "its first lines" : missing.join(", ")} could not be read.`,
    );
  }
  if (parsed.version !== "1") throw new ApiError(400, `message: Version must be 1, not "${parsed.version}".`);
  for (const key of ["issuedAt", "expirationTime", "notBefore"] as const) {
    const value = parsed[key];
    if (value && Number.isNaN(value.getTime())) {
      throw new ApiError(400, `message: ${key} is not an RFC 3339 time such as 2026-01-01T00:00:00.000Z.`);
    }
  }
  return parsed as Fields;
}

function checkFields(fields: Fields, domain: string, now: Date): void {
  if (fields.domain.toLowerCase() !== domain) {
    throw new ApiError(401, `This message signs in to "${fields.domain}", not to this site (${domain}); sign in from ${domain}.`);
  }
  let uriHost: string | null = null;
  try {
    uriHost = new URL(fields.uri).host;
  } catch {
    // reported below
  }
  if (uriHost !== domain) throw new ApiError(401, `The message's URI (${fields.uri}) is not on this site (${domain}).`);
  const chainId = expectedSiweChainId();
  if (chainId !== null && fields.chainId !== chainId) {
    throw new ApiError(
      401,
      `This message is for chain ${fields.chainId}; this site signs in on ${chainName(chainId)} (chain id ${chainId}). Sign a new message.`,
    );
  }
  if (fields.expirationTime && fields.expirationTime.getTime() <= now.getTime()) {
    throw new ApiError(401, `This sign-in message expired at ${fields.expirationTime.toISOString()}; sign a new one.`);
  }
  if (fields.notBefore && fields.notBefore.getTime() > now.getTime()) {
    throw new ApiError(401, `This sign-in message is not valid before ${fields.notBefore.toISOString()}.`);
  }
}

// One conditional UPDATE: of two requests racing with the same nonce, exactly one gets the row.
async function spendNonce(nonce: string, now: Date): Promise<void> {
  const refuse = (why: string) => new ApiError(401, `${why} Ask GET /api/auth/nonce for a new nonce and sign a new message.`);
  if (!SIWE_NONCE_PATTERN.test(nonce)) throw refuse("This sign-in nonce was not issued by this site.");
  const spent = await db.authNonce.updateMany({
    where: { nonce, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (spent.count === 1) return;
  const row = await db.authNonce.findUnique({ where: { nonce } });
  if (!row) throw refuse("This sign-in nonce was not issued by this site.");
  if (row.usedAt) throw refuse("This sign-in message was already used (each nonce works once).");
  throw refuse("This sign-in nonce has expired (nonces last 10 minutes).");
}

// An ordinary wallet's (EOA) signature is recovered locally, with no network call. Anything
// else may be a smart-contract wallet (ERC-1271, or ERC-6492 before deployment): only the chain
// can say, so when a chain is configured viem's verifySiweMessage asks it.
async function signatureIsValid(input: { fields: Fields; message: string; signature: Hex; domain: string; now: Date }): Promise<boolean> {
  const { fields, message, signature } = input;
  const byKey = await verifyMessage({ address: fields.address, message, signature }).catch(() => false);
  if (byKey) return true;
  const clients = configuredChainClients();
  if (!clients) return false;
  try {
    return await clients.publicClient.verifySiweMessage({
      message,
      signature,
      domain: fields.domain,
      nonce: fields.nonce,
      time: input.now,
    });
  } catch (error) {
    console.error("[auth] smart-contract wallet signature check failed", error instanceof Error ? error.name : error);
    throw new ApiError(503, "Could not reach the chain to check a smart-contract wallet's signature; try again shortly.");
  }
}
