// Smart-contract wallets (ERC-1271) sign in when a chain is configured: the signature is checked
// by the wallet contract itself, through viem's verifySiweMessage against a real anvil chain.
import solc from "solc";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authRequest, newWallet, siweMessage } from "@/test/auth-fixtures";
import { accounts, startChain } from "@/test/chain/anvil";

// A minimal ERC-1271 wallet: a signature is valid when its owner key made it.
const WALLET_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract OwnerWallet {
    address public immutable owner;
    constructor(address o) { owner = o; }
    function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
        if (sig.length != 65) return 0xffffffff;
        bytes32 r; bytes32 s; uint8 v;
        assembly { r := calldataload(sig.offset) s := calldataload(add(sig.offset, 32)) v := byte(0, calldataload(add(sig.offset, 64))) }
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}`;

function compileWallet() {
  const input = {
    language: "Solidity",
    sources: { "OwnerWallet.sol": { content: WALLET_SOURCE } },
    settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const c = out.contracts["OwnerWallet.sol"].OwnerWallet;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` as Hex };
}

let chain: Awaited<ReturnType<typeof startChain>>;
let POST: (req: Request) => Promise<Response>;
let NONCE: (req: Request) => Promise<Response>;

beforeAll(async () => {
  chain = await startChain();
  const dummy = "0x000000000000000000000000000000000000dEaD";
  vi.stubEnv("CHAIN_ID", "31337");
  vi.stubEnv("CHAIN_RPC_URL", chain.publicClient.transport.url ?? "");
  vi.stubEnv("USDC_ADDRESS", dummy);
  vi.stubEnv("ESCROW_ADDRESS", dummy);
  vi.stubEnv("QUOTE_SIGNER_PRIVATE_KEY", `0x${"11".repeat(32)}`);
  vi.stubEnv("OPERATOR_PRIVATE_KEY", `0x${"22".repeat(32)}`);
  vi.resetModules(); // lib/env re-reads process.env: payments are now configured
  ({ POST } = await import("@/app/api/auth/siwe/route"));
  ({ GET: NONCE } = await import("@/app/api/auth/nonce/route"));
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await chain?.stop();
});

async function signIn(address: Address, sign: (message: string) => Promise<Hex>) {
  const { nonce } = await (await NONCE(authRequest("nonce"))).json();
  const message = siweMessage(newWallet(), nonce, { address, chainId: 31337 });
  return POST(authRequest("siwe", { body: { message, signature: await sign(message) } }));
}

describe("POST /api/auth/siwe with a chain configured", () => {
  it("signs in an ERC-1271 smart-contract wallet, and refuses a signature its owner did not make", async () => {
    const owner = newWallet();
    const wallet = await chain.deploy(accounts[0].address, compileWallet(), [owner.address]);
    const ok = await signIn(wallet, (message) => owner.signMessage({ message }));
    expect(ok.status).toBe(200);
    expect((await ok.json()).account.walletAddress).toBe(wallet.toLowerCase());

    const stranger = newWallet();
    const bad = await signIn(wallet, (message) => stranger.signMessage({ message }));
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toMatch(/does not match the message/);
  });

  it("still signs ordinary wallets in (recovered locally) and refuses another key's signature", async () => {
    const eoa = newWallet();
    expect((await signIn(eoa.address, (message) => eoa.signMessage({ message }))).status).toBe(200);
    expect((await signIn(eoa.address, (message) => newWallet().signMessage({ message }))).status).toBe(401);
  });
});
