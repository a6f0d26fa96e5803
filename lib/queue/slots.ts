/**
 * A counting semaphore: at most `size` holders at once, waiters served in order. The in-process
 * queue shares one between all the batches of a round (HEALTH_CHECK_CONCURRENCY or
 * PROBE_CONCURRENCY checks in flight, as before batches existed); a delivered batch gets its own.
 */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  private readonly idle: (() => void)[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Takes a slot, waiting for one when all are held. The request is queued synchronously. */
  acquire(): Promise<void> {
    if (this.free > 0 && this.waiting.length === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) {
      next();
      return;
    }
    this.free++;
    // Looked at once the releasing code has run on: a worker that takes its next slot straight
    // away (the usual case) leaves nothing idle.
    if (this.idle.length > 0) queueMicrotask(() => this.wakeIdle());
  }

  /** Resolves once a slot is free and nobody waits for one: the moment more work can start at once. */
  whenFree(): Promise<void> {
    if (this.free > 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private wakeIdle(): void {
    if (this.free > 0 && this.waiting.length === 0) for (const resolve of this.idle.splice(0)) resolve();
  }
}
