// With a chain configured (CHAIN_ID), a sign-in message must name that chain: the session is bound
// to it, and smart-contract wallets are checked on it. The sign-in page writes it into the message.

import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authRequest, newWallet, siweMessage } from "@/test/auth-fixtures";

vi.mock("next/headers", () => ({ cookies: async () => ({ get: () => undefined }) }));

let POST: (req: Request) => Promise<Response>;
let NONCE: (req: Request) => Promise<Response>;

beforeAll(async () => {
  vi.stubEnv("CHAIN_ID", "8453");
  vi.resetModules(); // lib/env re-reads process.env
  ({ POST } = await import("@/app/api/auth/siwe/route"));
  ({ GET: NONCE } = await import("@/app/api/auth/nonce/route"));
});

afterAll(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const newNonce = async () => ((await (await NONCE(authRequest("nonce"))).json()) as { nonce: string }).nonce;

describe("POST /api/auth/siwe checks the chain id", () => {
  it("401 for a message naming another chain; its nonce is not spent, so the right message still works", async () => {
    const wallet = newWallet();
    const nonce = await newNonce();
    const wrong = siweMessage(wallet, nonce, { chainId: 1 });
    const refused = await POST(authRequest("siwe", { body: { message: wrong, signature: await wallet.signMessage({ message: wrong }) } }));
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toBe(
      "This message is for chain 1; this site signs in on Base (chain id 8453). Sign a new message.",
    );
    expect(refused.headers.get("set-cookie")).toBeNull();

    const right = siweMessage(wallet, nonce, { chainId: 8453 });
    const ok = await POST(authRequest("siwe", { body: { message: right, signature: await wallet.signMessage({ message: right }) } }));
    expect(ok.status).toBe(200);
    expect((await ok.json()).account.walletAddress).toBe(wallet.address.toLowerCase());
  });

  it("the sign-in page hands the configured chain id to the wallet button", async () => {
    const { default: SignInPage } = await import("@/app/(auth)/sign-in/page");
    const tree = await SignInPage({ searchParams: Promise.resolve({}) });
    expect(renderToStaticMarkup(tree)).toContain("Sign in with wallet");
    expect(findProps(tree, "WalletSignInButton")).toEqual({ chainId: 8453, destination: "/dashboard" });
  });
});

function findProps(node: unknown, name: string): Record<string, unknown> | undefined {
  if (!node || typeof node !== "object") return undefined;
  if (Array.isArray(node)) return node.map((child) => findProps(child, name)).find(Boolean);
  const element = node as ReactElement<Record<string, unknown>>;
  if (typeof element.type === "function" && element.type.name === name) return element.props;
  return findProps(element.props?.children, name);
}
