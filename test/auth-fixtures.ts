// Builders for the auth tests (imported by *.test.ts only): wallets that sign real EIP-4361
// messages, and requests to /api/auth/* as a browser would send them.
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { type CreateSiweMessageParameters, createSiweMessage } from "viem/siwe";
import { appUrl } from "@/lib/env";
import { uniqueIp } from "@/test/fixtures";

// The app's origin as the tests' requests see it; the expected SIWE domain is its host.
export const ORIGIN = appUrl();
export const DOMAIN = new URL(ORIGIN).host;

export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export type AuthRequest = {
  method?: string;
  ip?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
};

export function authRequest(path: string, options: AuthRequest = {}): Request {
  const headers: Record<string, string> = {
    "x-forwarded-for": options.ip ?? uniqueIp(),
    "user-agent": "vitest",
    ...options.headers,
  };
  if (options.cookie) headers.cookie = options.cookie;
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`${ORIGIN}/api/auth/${path}`, {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
}

/** A message as the sign-in page builds it, for `wallet`, with the given nonce and overrides. */
export function siweMessage(wallet: PrivateKeyAccount, nonce: string, overrides: Partial<CreateSiweMessageParameters> = {}): string {
  return createSiweMessage({
    domain: DOMAIN,
    uri: ORIGIN,
    address: wallet.address,
    version: "1",
    chainId: 8453,
    nonce,
    issuedAt: new Date(),
    statement: "Sign in to Agent Rental Service",
    ...overrides,
  });
}

/** `ars_session=<token>` from a response's Set-Cookie, ready to send back as a Cookie header. */
export function sessionCookieFrom(res: Response): string {
  const header = res.headers.get("set-cookie");
  const match = header && /^(ars_session=[^;]*)/.exec(header);
  if (!match) throw new Error(`no ars_session cookie in ${header}`);
  return match[1];
}

/** Signs `wallet` in through the real routes (nonce, then SIWE); returns the Cookie header value. */
export async function signInWithWallet(wallet: PrivateKeyAccount = newWallet()) {
  const { GET: NONCE } = await import("@/app/api/auth/nonce/route");
  const { POST: SIWE } = await import("@/app/api/auth/siwe/route");
  // The chain the routes just imported expect (CHAIN_ID, when a test configures one), as the
  // sign-in page would write it.
  const { expectedSiweChainId } = await import("@/lib/auth/verify-siwe-sign-in");
  const { nonce } = await (await NONCE(authRequest("nonce"))).json();
  const message = siweMessage(wallet, nonce, { chainId: expectedSiweChainId() ?? 8453 });
  const res = await SIWE(authRequest("siwe", { body: { message, signature: await wallet.signMessage({ message }) } }));
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const { account } = await res.json();
  return { cookie: sessionCookieFrom(res), accountId: account.id as string, wallet };
}
