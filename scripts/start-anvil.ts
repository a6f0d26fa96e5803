// A local anvil chain, shared by `npm run dev` (scripts/dev.ts) and the contract tests
// (test/chain/anvil.ts). The native binary is started directly: killing an `npx anvil` wrapper
// would orphan the chain.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { mnemonicToSeedSync } from "@scure/bip39";
import { HDKey, hdKeyToAccount } from "viem/accounts";
import { freePort } from "./free-port";

// anvil's default mnemonic: its first ten accounts are funded (10,000 ETH) and unlocked.
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
// The seed is derived once (viem's mnemonicToAccount would stretch the mnemonic again for each of
// the ten: half a second at every import, in each of the thirty test files that load this one).
const seed = HDKey.fromMasterSeed(mnemonicToSeedSync(ANVIL_MNEMONIC));
export const accounts = Array.from({ length: 10 }, (_, i) => hdKeyToAccount(seed, { addressIndex: i }));

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

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

/**
 * Starts anvil on 127.0.0.1 and resolves once it listens. Without a port, anvil takes one the
 * system gives it (port 0) and says which: a free port found beforehand could be taken by another
 * anvil of the suite in the meantime, and that one's answers would then pass for ours.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const bin = anvilBinary();
  const stateArgs = options.statePath ? ["--state", options.statePath, "--state-interval", "10"] : [];
  if (options.port !== undefined) {
    await freePort(options.port).catch(() => {
      throw new Error(`port ${options.port} is in use: cannot start anvil there (another instance running?)`);
    });
  }
  // Not --silent: anvil prints "Listening on 127.0.0.1:<port>" once it is bound (then its log, read and dropped).
  const child = spawn(bin, ["--host", "127.0.0.1", "--port", String(options.port ?? 0), ...stateArgs], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4_000)));
  const stop = stopper(child);
  // A bare start listens in ~100 ms, loading a large state file takes a moment: the bound only
  // catches an anvil that hangs (one that exits is reported at once), so it leaves a loaded
  // machine (the whole suite on two cores) far more room than that.
  const port = await new Promise<string | undefined>((resolve) => {
    let stdout = "";
    let listening: RegExpExecArray | null = null;
    const timer = setTimeout(() => resolve(undefined), options.statePath ? 120_000 : 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (listening) return; // its log from here on: read and dropped
      stdout = (stdout + chunk).slice(-4_000);
      listening = /Listening on 127\.0\.0\.1:(\d+)/.exec(stdout);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    });
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  if (port) return { rpcUrl: `http://127.0.0.1:${port}`, stop };
  await stop();
  const where = options.port === undefined ? "" : ` on port ${options.port}`;
  throw new Error(`anvil did not start${where} (${bin})${stderr.trim() ? `: ${stderr.trim()}` : ""}`);
}
