/**
 * A small in-process cache of values (usually promises, so concurrent callers share one
 * computation) that expire after a time to live, dropping the oldest entry past a size bound.
 * For figures that may be slightly stale (the marketplace's facet counts); never for anything a
 * decision depends on. The clock is injectable for tests.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly options: { ttlMs: number; maxEntries: number; now?: () => number }) {}

  /** The cached value, or `compute()`'s (cached for ttlMs; a rejected promise is not kept). */
  get(key: string, compute: () => V): V {
    const now = (this.options.now ?? Date.now)();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const value = compute();
    if (this.options.ttlMs <= 0) return value;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + this.options.ttlMs });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    if (value instanceof Promise) value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    return value;
  }
}
