export {};

// One health-check run in a process of its own, as the cron's function would make it, for
// bench/health-checks.ts, which bundles this file and runs it with plain Node: samples its own memory while runHealthChecks() works and prints one
// JSON line { wallMs, rssStart, rssPeak, heapPeak, externalPeak, summary, batches, slowestBatchMs }
// (memory in bytes). Without QStash settings the run's batches go through the in-process queue;
// `batches` and `slowestBatchMs` are theirs (the longest a batch took from its first query to its last).
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
const batchMs: number[] = [];
const started = performance.now();
const summary = await runHealthChecks({ onBatch: (batch) => batchMs.push(batch.durationMs) });
const wallMs = performance.now() - started;
console.log = log;
clearInterval(sampler);
sample();
await db.$disconnect();
const slowestBatchMs = batchMs.length > 0 ? Math.max(...batchMs) : null;
console.log(
  JSON.stringify({ wallMs, rssStart: atStart.rss, rssPeak, heapPeak, externalPeak, summary, batches: batchMs.length, slowestBatchMs }),
);
process.exit(0);
