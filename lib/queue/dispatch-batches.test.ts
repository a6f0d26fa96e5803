import { describe, expect, it } from "vitest";
import { type BatchContext, dispatchBatches } from "@/lib/queue/dispatch-batches";

// Without QStash settings (tests never set them unless they start the stand-in), batches run here.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("dispatchBatches in-process", () => {
  it("runs every batch, with never more checks in flight than the round's concurrency, and starts a batch while another finishes its tail", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const started: Record<string, number> = {};
    const ended: Record<string, number> = {};
    // Each "check" takes 20 ms; a batch's last check (its tail) 100 ms.
    const run = async (body: { id: string; checks: number; concurrency: number }, { slots, onStarted }: BatchContext) => {
      started[body.id] = performance.now();
      let left = body.checks;
      const worker = async () => {
        while (left > 0) {
          left--;
          const last = left === 0;
          await slots.acquire();
          maxInFlight = Math.max(maxInFlight, ++inFlight);
          await sleep(last ? 100 : 20);
          inFlight--;
          slots.release();
        }
      };
      const workers = Array.from({ length: body.concurrency }, worker);
      onStarted?.();
      await Promise.all(workers);
      ended[body.id] = performance.now();
      return body.id;
    };
    const batches = ["a", "b", "c", "d"].map((id) => ({ body: { id, checks: 6, concurrency: 3 }, hostKey: id === "c" ? "host-x" : null }));
    const result = await dispatchBatches("health-checks", batches, { run, concurrency: 3 });
    expect(result).toEqual({ transport: "in-process", results: ["a", "b", "c", "d"] });
    expect(maxInFlight).toBe(3);
    // a held every slot until its tail, its last check, left two of them free: b started then,
    // before a ended, not at once.
    expect(started.b - started.a).toBeGreaterThanOrEqual(30);
    expect(started.b).toBeLessThan(ended.a);
  });

  it("fails when a batch fails, after the others have finished", async () => {
    const ran: string[] = [];
    const run = async (body: { id: string }, { onStarted }: BatchContext) => {
      onStarted?.();
      await sleep(5);
      if (body.id === "b") throw new Error("the database went away");
      ran.push(body.id);
      return body.id;
    };
    const batches = ["a", "b", "c"].map((id) => ({ body: { id }, hostKey: null }));
    await expect(dispatchBatches("probe-rentals", batches, { run, concurrency: 2 })).rejects.toThrow("the database went away");
    expect(ran.sort()).toEqual(["a", "c"]);
  });
});
