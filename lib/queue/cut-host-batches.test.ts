import { describe, expect, it } from "vitest";
import { batchLimits, cutHostBatches, type HostedAgent } from "@/lib/queue/cut-host-batches";

const agents = (host: string | null, count: number, prefix = host ?? "none"): HostedAgent[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}-${i}`, host }));
const limits = { batchAgents: 6, concurrency: 4, hostConcurrency: 2, hostBatchAgents: 3 };

describe("cutHostBatches", () => {
  it("gives a host with more agents than its concurrency batches of its own, and packs the small hosts together", () => {
    const batches = cutHostBatches([...agents("big.example", 7), ...agents("a.example", 2), ...agents("b.example", 1)], limits);
    expect(batches).toEqual([
      { agents: ["big.example-0", "big.example-1", "big.example-2"], host: "big.example", concurrency: 2 },
      { agents: ["big.example-3", "big.example-4", "big.example-5"], host: "big.example", concurrency: 2 },
      { agents: ["big.example-6"], host: "big.example", concurrency: 1 },
      { agents: ["a.example-0", "a.example-1", "b.example-0"], host: null, concurrency: 3 },
    ]);
  });

  it("never splits a small host between shared batches, and keeps shared batches to batchAgents", () => {
    const input = [...agents("a", 2), ...agents("b", 2), ...agents("c", 2), ...agents("d", 2), ...agents(null, 5)];
    const batches = cutHostBatches(input, limits);
    expect(batches.every((b) => b.agents.length <= limits.batchAgents)).toBe(true);
    for (const host of ["a", "b", "c", "d"]) {
      expect(batches.filter((b) => b.agents.some((id) => id.startsWith(`${host}-`)))).toHaveLength(1);
    }
    // Every agent exactly once.
    expect(batches.flatMap((b) => b.agents).sort()).toEqual(input.map((a) => a.id).sort());
    expect(batches.every((b) => b.host === null && b.concurrency === Math.min(4, b.agents.length))).toBe(true);
  });

  it("returns no batch for no agent", () => {
    expect(cutHostBatches([], limits)).toEqual([]);
  });
});

describe("batchLimits", () => {
  it("sizes batches so that every check at its full timeout still ends inside the batch budget", () => {
    // 10 s timeouts, 60 s: six rounds of 50 checks; a host's batch six rounds of its 10.
    expect(batchLimits({ timeoutMs: 10_000, concurrency: 50, hostConcurrency: 10, batchBudgetMs: 60_000 })).toEqual({
      batchAgents: 300,
      concurrency: 50,
      hostConcurrency: 10,
      hostBatchAgents: 60,
    });
    // A timeout longer than the budget still makes one round; a host never gets more than the batch's concurrency.
    expect(batchLimits({ timeoutMs: 60_000, concurrency: 5, hostConcurrency: 10, batchBudgetMs: 30_000 })).toEqual({
      batchAgents: 5,
      concurrency: 5,
      hostConcurrency: 5,
      hostBatchAgents: 5,
    });
    // At most 1,000 agents a batch, however short the timeout.
    expect(batchLimits({ timeoutMs: 100, concurrency: 200, hostConcurrency: 10, batchBudgetMs: 30_000 }).batchAgents).toBe(1_000);
  });
});
