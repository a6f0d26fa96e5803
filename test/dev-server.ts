// `npm run dev` as a newcomer runs it, for the tests of the embedded default: no database, Redis
// or chain configured, its own data folder and ports, in a process group of its own so that
// stopping it is what Ctrl-C does in a terminal (every process of the group gets SIGINT).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { freePort } from "../scripts/free-port";

export type DevServer = {
  port: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** The last lines it printed, for a failure's message. */
  tail(lines?: number): string;
  /** Resolves with the demo rental's code once the banner is printed; rejects if it exits first. */
  ready: Promise<string>;
  /**
   * Ctrl-C, then waits until every process of the group has gone (anvil writes its state). If some
   * are still running after `graceMs`, kills the group (SIGKILL) and says which were left, also in
   * the output: undefined when Ctrl-C was enough.
   */
  stop(graceMs?: number): Promise<string | undefined>;
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
    tail: (lines = 60) => output.split("\n").slice(-lines).join("\n"),
    ready,
    async stop(graceMs = 60_000) {
      const group = child.pid!;
      try {
        process.kill(-group, "SIGINT");
      } catch {
        return undefined; // the whole group has already gone
      }
      // The group's processes (npm, the orchestrator, the Next.js server, anvil) end on their own
      // signal: wait for the last one, by its exit rather than a guess at how long it takes. Not
      // forever: one that ignores Ctrl-C would hang the caller, and is a bug of its own.
      if (await groupGone(group, graceMs)) return undefined;
      const left = groupMembers(group).join("\n");
      try {
        process.kill(-group, "SIGKILL");
      } catch {}
      const gone = await groupGone(group, 10_000);
      const report = `still running ${graceMs / 1000} s after Ctrl-C, killed (SIGKILL)${gone ? "" : " but not gone"}:\n${left || "(ps listed none)"}`;
      output += `\n[test] npm run dev ${report}\n`;
      return report;
    },
  };
}

/** The group's processes that still run ("pid args"), zombies left out: they have ended. */
function groupMembers(group: number): string[] {
  try {
    return execFileSync("ps", ["-eo", "pid=,pgid=,stat=,args="], { encoding: "utf8" })
      .split("\n")
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
      .filter((m) => m !== null && Number(m[2]) === group && !m[3].startsWith("Z"))
      .map((m) => `${m![1]} ${m![4]}`);
  } catch {
    // No ps: whether any process of the group is there at all (a zombie counts).
    try {
      process.kill(-group, 0);
      return [`(a process of group ${group})`];
    } catch {
      return [];
    }
  }
}

async function groupGone(group: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  for (;;) {
    if (groupMembers(group).length === 0) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
