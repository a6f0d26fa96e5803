// The banner of `npm run dev` introduces the demo: how to sign in as its owner and its renter, that
// the owner's key is new on each start, the owner's payout-wallet key and the echo agent's webhook.
import { describe, expect, it } from "vitest";
import { demoBanner } from "./demo-banner";

const demo = { email: "demo-owner@example.com", apiKey: "rck_demo", agentId: "agent-1", code: "ab12cd34" };
const echo = { url: "http://127.0.0.1:41234/hooks/agent", token: "echo-token-123" };
const chain = {
  rpcUrl: "http://127.0.0.1:8545",
  chainId: 31337,
  escrow: "0x00000000000000000000000000000000000000e5",
  usdc: "0x00000000000000000000000000000000000000d1",
  renter: "0x00000000000000000000000000000000000000aa",
  renterKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  arbiter: "0x00000000000000000000000000000000000000ab",
  arbiterKey: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  owner: "0x00000000000000000000000000000000000000ac",
  ownerKey: "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
} as const;

describe("demoBanner", () => {
  it("says how to sign in as the demo owner and the demo renter, and that the key is new", () => {
    const text = demoBanner({ base: "http://localhost:3000", demo, echo, chain, chainDir: ".data/pglite-chain", settings: {} });
    expect(text).toContain("Demo owner        demo-owner@example.com");
    expect(text).toContain('http://localhost:3000/sign-in → "E-mail me a sign-in link" with that address');
    expect(text).toContain("the link in the outbox: http://localhost:3000/dev/outbox");
    expect(text).toContain("Owner API key     rck_demo\n                   new on every start: the previous demo key was revoked");
    expect(text).toContain(chain.renterKey);
    expect(text).toContain('then "Sign in with wallet" at http://localhost:3000/sign-in');
    expect(text).toContain("(chain id 31337)");
    expect(text).toContain("decides disputes at http://localhost:3000/dashboard/disputes");
    expect(text).toContain(chain.arbiterKey);
    expect(text).toContain('-H "X-API-Key: ab12cd34"');
    expect(text.trimEnd().endsWith("DEMO_RENTAL_CODE=ab12cd34")).toBe(true);
  });

  it("gives the payout wallet's key (accepting a dispute sends from it) and the echo agent's webhook", () => {
    const text = demoBanner({ base: "http://localhost:3000", demo, echo, chain, chainDir: ".data/pglite-chain", settings: {} });
    expect(text).toContain(`Payout wallet     ${chain.owner} (the demo owner's; the escrow pays out to it)`);
    expect(text).toContain("accepting a dispute (http://localhost:3000/dashboard/agents) sends from it");
    expect(text).toContain(chain.ownerKey);
    expect(text).toContain("Echo agent        http://127.0.0.1:41234/hooks/agent (the demo agent's webhook");
    expect(text).toContain("Token:          echo-token-123");
  });

  it("on the developer's own chain there is no demo wallet to offer", () => {
    const text = demoBanner({
      base: "http://localhost:3000",
      demo,
      echo,
      chainDir: ".data/pglite-chain",
      settings: { rpcUrl: "https://rpc.example", chainId: "84532" },
    });
    expect(text).toContain("Chain             https://rpc.example (chain id 84532, from your settings)");
    expect(text).toContain("Escrow            (ESCROW_ADDRESS not set)");
    expect(text).toContain("the demo rental is an unpaid development rental");
    expect(text).not.toContain("Sign in with wallet");
    expect(text).not.toContain("Payout wallet");
    expect(text).toContain("Token:          echo-token-123");
  });
});
