// A local anvil chain, shared by `npm run dev` (scripts/dev.ts) and the contract tests
// (test/chain/anvil.ts). The native binary is started directly: killing an `npx anvil` wrapper
// would orphan the chain.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { mnemonicToAccount } from "viem/accounts";
import { freePort } from "./free-port";

// anvil's default mnemonic: its first ten accounts are funded (10,000 ETH) and unlocked.
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
export const accounts = Array.from({ length: 10 }, (_, i) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i }));

export type Anvil = { rpcUrl: string; stop: () => Promise<void> };
export type AnvilOptions = {
  /** Port on 127.0.0.1; by default a free one is picked. */
  port?: number;
  /** State file: loaded at start when it exists, written every 10 s and on exit. */
  statePath?: string;
};

// @foundry-rs/anvil installs the binary through one optional package per platform.
function anvilBinary(): string {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
    return path.join(dir, process.platform === "win32" ? "bin/anvil.exe" : "bin/anvil");
  } catch {
    throw new Error(`anvil is not installed for ${process.platform}/${process.arch} (${pkg}): run npm install`);
  }
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

// anvil dumps its state (with --state) when it gets SIGTERM or SIGINT, then exits.
function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

/** Starts anvil on 127.0.0.1 and resolves once it answers JSON-RPC. */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const bin = anvilBinary();
  const stateArgs = options.statePath ? ["--state", options.statePath, "--state-interval", "10"] : [];
  // Another process may grab a picked port between freePort() and anvil's bind: then try another.
  // A port asked for is tried once.
  const attempts = options.port === undefined ? 5 : 1;
  if (options.port !== undefined) {
    // Otherwise a chain already listening there (another `npm run dev`?) would answer for ours.
    await freePort(options.port).catch(() => {
      throw new Error(`port ${options.port} is in use: cannot start anvil there (another instance running?)`);
    });
  }
  let stderr = "";
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = options.port ?? (await freePort());
    const rpcUrl = `http://127.0.0.1:${port}`;
    const child = spawn(bin, ["--host", "127.0.0.1", "--port", String(port), "--silent", ...stateArgs], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4_000)));
    const stop = stopper(child);
    // Loading a large state file takes a moment; a bare start answers in ~100 ms.
    const deadline = Date.now() + (options.statePath ? 30_000 : 10_000);
    while (child.exitCode === null && Date.now() < deadline) {
      if (await answers(rpcUrl)) return { rpcUrl, stop };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await stop();
  }
  const port = options.port === undefined ? "" : ` on port ${options.port}`;
  throw new Error(`anvil did not start${port} (${bin})${stderr.trim() ? `: ${stderr.trim()}` : ""}`);
}
