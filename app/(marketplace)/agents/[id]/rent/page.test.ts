// The rent page as the server renders it, with CHAIN_RPC_URL holding a provider's API key: the key
// is neither in the HTML nor in the props handed to the checkout (what Next.js serialises into the
// page for the browser); the public RPC URL is.

import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeAgent } from "@/test/fixtures";

vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  connection: async () => {},
}));
// A visitor: no session cookie (the checkout's result then links through the sign-in).
vi.mock("next/headers", () => ({ cookies: async () => ({ get: () => undefined }) }));

const SECRET = "SECRET-PROVIDER-KEY-4f1c9e";
const CHAIN = {
  CHAIN_RPC_URL: `https://base-mainnet.g.alchemy.com/v2/${SECRET}`,
  USDC_ADDRESS: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  ESCROW_ADDRESS: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function renderRentPage(vars: Record<string, string>) {
  for (const [name, value] of Object.entries({ ...CHAIN, ...vars })) vi.stubEnv(name, value);
  vi.resetModules(); // lib/env reads the stubbed settings
  const { default: RentPage } = await import("@/app/(marketplace)/agents/[id]/rent/page");
  const agent = await makeAgent({ webhook: { url: "https://agent.example.com/hooks/agent", token: "t".repeat(40) } });
  const tree = await RentPage({ params: Promise.resolve({ id: agent.id }), searchParams: Promise.resolve({}) });
  return {
    html: renderToStaticMarkup(tree),
    payload: clientPayload(tree),
    checkoutChain: findProps(tree, "Checkout")?.chain,
  };
}

// Every value in the element tree the page returns: the props of client components in it are what
// Next.js writes into the page's flight data for the browser.
function clientPayload(tree: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(tree, (key, value) => {
    if (key.startsWith("_") || typeof value === "function" || typeof value === "symbol") return undefined;
    if (typeof value === "bigint") return value.toString();
    if (value && typeof value === "object") {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  });
}

function findProps(node: unknown, componentName: string): Record<string, unknown> | undefined {
  if (!node || typeof node !== "object") return undefined;
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findProps(child, componentName);
      if (found) return found;
    }
    return undefined;
  }
  const element = node as ReactElement<Record<string, unknown>>;
  if (typeof element.type === "function" && element.type.name === componentName) return element.props;
  return findProps(element.props?.children, componentName);
}

describe("/agents/[id]/rent and CHAIN_RPC_URL", () => {
  it("hands the browser the chain's public RPC, never the server's keyed one", async () => {
    const { html, payload, checkoutChain } = await renderRentPage({ CHAIN_ID: "8453" });
    expect(checkoutChain).toMatchObject({ chainId: 8453, chainName: "Base", rpcUrl: "https://mainnet.base.org" });
    expect(payload).toContain("https://mainnet.base.org");
    expect(payload).not.toContain(SECRET);
    expect(html).toContain('data-testid="total-amount"');
    expect(html).not.toContain(SECRET);
  });

  it("hands the browser CHAIN_PUBLIC_RPC_URL when it is set", async () => {
    const { payload, checkoutChain } = await renderRentPage({
      CHAIN_ID: "8453",
      CHAIN_PUBLIC_RPC_URL: "https://rpc.example.com/base",
    });
    expect(checkoutChain).toMatchObject({ rpcUrl: "https://rpc.example.com/base" });
    expect(payload).not.toContain(SECRET);
  });

  it("on a chain without a known public endpoint and no CHAIN_PUBLIC_RPC_URL: no checkout, and says which setting is missing", async () => {
    const { html, payload } = await renderRentPage({ CHAIN_ID: "987654321" });
    expect(html).toContain('data-testid="payments-not-configured"');
    expect(html).toContain("CHAIN_PUBLIC_RPC_URL");
    expect(payload).not.toContain(SECRET);
  });
});
