/**
 * A small in-process cache of values (usually promises, so concurrent callers share one
 * computation) that expire after a time to live, dropping the oldest entry past a size bound.
 * For answers that may be a little stale (the marketplace's facet counts, a rental looked up a
 * moment ago); each user says why that is safe. The clock is injectable for tests.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly options: {
      ttlMs: number;
      maxEntries: number;
      now?: () => number;
      /** Which results are kept once known (for a promise, once it settles); default: all. */
      keep?: (result: Awaited<V>) => boolean;
    },
  ) {}

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
    const drop = () => this.entries.get(key)?.value === value && this.entries.delete(key);
    const keep = this.options.keep;
    if (value instanceof Promise) value.then((result) => keep && !keep(result) && drop(), drop);
    else if (keep && !keep(value as Awaited<V>)) drop();
    return value;
  }
}
