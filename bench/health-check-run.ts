export {};

// One health-check run in a process of its own, as the cron's function would make it, for
// bench/health-checks.ts, which bundles this file and runs it with plain Node: samples its own memory while runHealthChecks() works and prints one
// JSON line { wallMs, rssStart, rssPeak, heapPeak, externalPeak, summary } (memory in bytes).
const { runHealthChecks } = await import("@/lib/agents/run-health-checks");
const { db } = await import("@/lib/db");

await db.$queryRaw`SELECT 1`; // connected, as a warm function is
const atStart = process.memoryUsage();
let rssPeak = atStart.rss;
let heapPeak = atStart.heapUsed;
let externalPeak = atStart.external;
const sample = () => {
  const { rss, heapUsed, external } = process.memoryUsage();
  rssPeak = Math.max(rssPeak, rss);
  heapPeak = Math.max(heapPeak, heapUsed);
  externalPeak = Math.max(externalPeak, external);
};
const sampler = setInterval(sample, 50);
// The outbox prints every e-mail; hundreds of them would bury the figures.
const log = console.log;
console.log = () => {};
const started = performance.now();
const summary = await runHealthChecks();
const wallMs = performance.now() - started;
console.log = log;
clearInterval(sampler);
sample();
await db.$disconnect();
console.log(JSON.stringify({ wallMs, rssStart: atStart.rss, rssPeak, heapPeak, externalPeak, summary }));
process.exit(0);
