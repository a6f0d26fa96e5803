// `npm run dev` as a newcomer runs it, for the tests of the embedded default: no database, Redis
// or chain configured, its own data folder and ports, in a process group of its own so that
// stopping it is what Ctrl-C does in a terminal (every process of the group gets SIGINT).
import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "../scripts/free-port";

export type DevServer = {
  port: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the demo rental's code once the banner is printed; rejects if it exits first. */
  ready: Promise<string>;
  /** Ctrl-C, then waits until every process of the group has gone (anvil writes its state). */
  stop(): Promise<void>;
};

// Settings a developer's shell or the test run may hold that would replace the embedded default.
const CONFIGURED = [
  "DATABASE_URL",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "NODE_ENV",
  "VITEST",
  "WEBHOOK_TIMEOUT_MS",
  "CHAIN_ID",
  "CHAIN_RPC_URL",
  "USDC_ADDRESS",
  "ESCROW_ADDRESS",
  "QUOTE_SIGNER_PRIVATE_KEY",
  "OPERATOR_PRIVATE_KEY",
  "RENTER_PRIVATE_KEY",
  "CHAIN_CONFIRMATIONS",
  "ESCROW_START_BLOCK",
  "TELEGRAM_BOT_TOKEN",
  "TELEGRAM_WEBHOOK_SECRET",
  "TELEGRAM_BOT_USERNAME",
  "TELEGRAM_API_URL",
];

/** Ports of its own, kept across restarts like a developer's. */
export async function devPorts(): Promise<{ PORT: string; EMBEDDED_PG_PORT: string; EMBEDDED_CHAIN_PORT: string }> {
  return { PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_CHAIN_PORT: String(await freePort()) };
}

/** Starts `npm run dev` on `dataDir`, the whole command as a person types it. */
export function startDevServer(dataDir: string, ports: Awaited<ReturnType<typeof devPorts>>): DevServer {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ports, EMBEDDED_DATA_DIR: dataDir };
  for (const name of CONFIGURED) delete env[name];
  const child: ChildProcess = spawn("npm", ["run", "dev", "--silent"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /DEMO_RENTAL_CODE=([0-9a-f]{8})/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`npm run dev exited (${code}):\n${output}`)));
  });
  ready.catch(() => {}); // a caller that stops it before the banner does not wait for it

  return {
    port: Number(ports.PORT),
    output: () => output,
    ready,
    async stop() {
      const group = -child.pid!;
      try {
        process.kill(group, "SIGINT");
      } catch {
        return; // the whole group has already gone
      }
      if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once("exit", resolve));
      // The group's other processes (the Next.js server, anvil) end on their own signal: wait for
      // the last one, by its exit rather than a guess at how long it takes.
      while (groupAlive(group)) await new Promise((resolve) => setTimeout(resolve, 100));
    },
  };
}

function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}
