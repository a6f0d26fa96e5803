// bench/run.ts's slow chats (issue 26): N renters each send one POST /api/v1/chat at once to an
// agent whose webhook answers after 20 s. Every one must get the owner's answer (200), or past
// the webhook timeout the spec's 503; the stage prints how many got 200 and, grouped, the status
// or error of every one that did not (each is also in bench-results/slow-chats-<N>.json).
//
// The harness must not be what fails. The webhook is a process of its own (an owner's server is
// elsewhere) with a listen queue deep enough for every call at once; the renters are plain
// node:http clients, each on a connection of its own (N renters, not one client reusing
// connections), with no timeout of their own shorter than the service's. An earlier harness ran
// the webhook and fetch() in the bench's process: fetch gave up on connects after 10 s when that
// process was short of CPU, and the webhook's queue of 511 overflowed.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { gunzipSync, inflateSync } from "node:zlib";

// The renters' own limit: far past the service's 30 s, so only the service's answer counts.
const CLIENT_GIVES_UP_MS = 120_000;

export type SlowWebhook = { url: string; arrivals: () => Promise<number[]>; close: () => void };

// Answers every POST after `hangMs` with the JSON string "late"; GET /arrivals returns (and
// forgets) when each POST arrived (epoch ms), to tell time spent before the service called out.
const WEBHOOK_JS = `
const http = require("node:http");
const hangMs = Number(process.argv[1]);
let arrivals = [];
const server = http.createServer((req, res) => {
  if (req.method === "GET") return res.end(JSON.stringify(arrivals.splice(0)));
  arrivals.push(Date.now());
  req.resume();
  req.on("end", () => setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('"late"'), hangMs));
});
server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, () => console.log(server.address().port));
`;

export async function startSlowWebhook(hangMs: number): Promise<SlowWebhook> {
  const child = spawn(process.execPath, ["-e", WEBHOOK_JS, String(hangMs)], { stdio: ["ignore", "pipe", "inherit"] });
  process.once("exit", () => child.kill());
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (c: Buffer) => resolve(Number(c.toString().trim())));
    child.once("exit", (code) => reject(new Error(`the slow webhook exited (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hooks/agent`,
    arrivals: async () => (await fetch(`${base}/arrivals`)).json() as Promise<number[]>,
    close: () => child.kill(),
  };
}

export type SlowChatOutcome = { chat: number; ms: number; status: number | null; error: string | null };

// One renter's chat: 200 counts only with the owner's reply in it. Sends Accept-Encoding as
// fetch() and Python's requests do.
function sendChat(base: string, code: string, chat: number, agent: http.Agent): Promise<SlowChatOutcome> {
  const started = performance.now();
  const body = JSON.stringify({ message: "take your time" });
  return new Promise((resolve) => {
    const done = (status: number | null, error: string | null) =>
      resolve({ chat, ms: Math.round(performance.now() - started), status, error });
    const req = http.request(
      `${base}/api/v1/chat`,
      {
        method: "POST",
        agent,
        headers: {
          "x-api-key": code,
          "content-type": "application/json",
          "accept-encoding": "gzip, deflate",
          // Each renter from an address of its own: the 60/min limit is per client.
          "x-forwarded-for": `10.${240 + ((chat >> 16) & 15)}.${(chat >> 8) & 255}.${chat & 255}`,
        },
        timeout: CLIENT_GIVES_UP_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e: NodeJS.ErrnoException) => done(res.statusCode ?? null, `response broke: ${e.code ?? e.message}`));
        res.on("end", () => {
          let text: string;
          try {
            const raw = Buffer.concat(chunks);
            const encoding = res.headers["content-encoding"];
            text = (encoding === "gzip" ? gunzipSync(raw) : encoding === "deflate" ? inflateSync(raw) : raw).toString("utf8");
          } catch {
            return done(res.statusCode ?? null, "undecodable body");
          }
          if (res.statusCode !== 200) return done(res.statusCode ?? null, errorOf(text));
          try {
            if (JSON.parse(text).response === "late") return done(200, null);
          } catch {}
          done(200, `200 without the owner's reply: ${text.slice(0, 120)}`);
        });
      },
    );
    req.on("timeout", () =>
      req.destroy(Object.assign(new Error(`no answer within ${CLIENT_GIVES_UP_MS / 1000} s`), { code: "CLIENT_TIMEOUT" })),
    );
    req.on("error", (e: NodeJS.ErrnoException) => done(null, e.code ?? e.message));
    req.end(body);
  });
}

function errorOf(text: string): string {
  try {
    return String(JSON.parse(text).error).slice(0, 160);
  } catch {
    return text.slice(0, 160);
  }
}

export type SlowChatRun = {
  chats: number;
  ok: number;
  outcomes: SlowChatOutcome[];
  // When each reached the webhook, ms after the chats were sent (the service's time before calling out).
  reachedWebhookMs: number[];
  // The server's CPU over the run (status's requests included when they ran beside it).
  serverCpuMs: number | null;
  withStatusBeside: boolean;
  listenOverflows: number | null;
};

/** Sends `chats` chats at once and waits for every answer; `beside` runs meanwhile (status's load). */
export async function runSlowChats(options: {
  base: string;
  code: string;
  chats: number;
  webhook: SlowWebhook;
  serverPid: number;
  firstChat?: number;
  beside?: () => Promise<void>;
}): Promise<SlowChatRun> {
  const { base, code, chats, webhook, serverPid, firstChat = 0, beside } = options;
  await webhook.arrivals(); // forget earlier runs
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const cpuBefore = processTreeCpuMs(serverPid);
  const overflowsBefore = listenOverflows();
  const sentAt = Date.now();
  const pending = Array.from({ length: chats }, (_, i) => sendChat(base, code, firstChat + i, agent));
  if (beside) {
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // all sent and waiting on the webhook
    await beside();
  }
  const outcomes = await Promise.all(pending);
  agent.destroy();
  const cpuAfter = processTreeCpuMs(serverPid);
  const overflowsAfter = listenOverflows();
  const run: SlowChatRun = {
    chats,
    ok: outcomes.filter((o) => o.status === 200 && o.error === null).length,
    outcomes,
    reachedWebhookMs: (await webhook.arrivals()).map((t) => t - sentAt).sort((a, b) => a - b),
    serverCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    withStatusBeside: beside !== undefined,
    listenOverflows: overflowsBefore === null || overflowsAfter === null ? null : overflowsAfter - overflowsBefore,
  };
  mkdirSync("bench-results", { recursive: true });
  writeFileSync(`bench-results/slow-chats-${chats}.json`, JSON.stringify(outcomes.filter((o) => o.error !== null)));
  return run;
}

const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : Number.NaN);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function printSlowChats(run: SlowChatRun, hangMs: number): void {
  const times = run.outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const reached = run.reachedWebhookMs;
  console.log(
    `\n${run.chats} chats at once, each waiting ${hangMs / 1000} s on its webhook: ${run.ok} of ${run.chats} answered 200 with the owner's reply.`,
  );
  console.log(
    `  answered after p50 ${s(pct(times, 50))}, p99 ${s(pct(times, 99))}, max ${s(times.at(-1) ?? Number.NaN)}; ` +
      `${reached.length} reached the webhook, after p50 ${s(pct(reached, 50))}, max ${s(reached.at(-1) ?? Number.NaN)}`,
  );
  const cpu =
    run.serverCpuMs === null
      ? "not measured"
      : `${(run.serverCpuMs / run.chats).toFixed(1)} ms a chat${run.withStatusBeside ? " (status's requests beside them included)" : ""}`;
  const overflows = run.listenOverflows === null ? "not measured" : String(run.listenOverflows);
  console.log(`  server CPU: ${cpu}; connections dropped by a full listen queue (whole machine): ${overflows}`);
  const groups = new Map<string, number[]>();
  for (const o of run.outcomes) {
    if (o.error === null) continue;
    const key = o.status === null ? `no answer: ${o.error}` : `HTTP ${o.status}: ${o.error}`;
    groups.set(key, [...(groups.get(key) ?? []), o.ms]);
  }
  for (const [key, ms] of groups) {
    console.log(`  ${ms.length} × ${key} (after ${s(Math.min(...ms))}–${s(Math.max(...ms))})`);
  }
}

// CPU time (user + system, ms) of a process and its descendants (the server runs under tsx's
// CLI, a child of it); null where /proc is missing.
function processTreeCpuMs(pid: number): number | null {
  try {
    const tick = 1000 / 100; // USER_HZ is 100 on Linux
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    let total = (Number(fields[11]) + Number(fields[12])) * tick;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean)) {
        total += processTreeCpuMs(Number(child)) ?? 0;
      }
    }
    return total;
  } catch {
    return null;
  }
}

// TcpExtListenOverflows: connections the kernel dropped because a listen queue was full.
function listenOverflows(): number | null {
  try {
    const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
    const at = lines.findIndex((l) => l.startsWith("TcpExt:"));
    const names = lines[at].split(" ");
    return Number(lines[at + 1].split(" ")[names.indexOf("ListenOverflows")]);
  } catch {
    return null;
  }
}
