import { describe, expect, it } from "vitest";
import { TtlCache } from "@/lib/cache/ttl-cache";

describe("TtlCache", () => {
  it("serves a value until it expires, then computes it again", () => {
    let now = 0;
    let computed = 0;
    const cache = new TtlCache<number>({ ttlMs: 1000, maxEntries: 10, now: () => now });
    const get = () => cache.get("k", () => ++computed);
    expect([get(), get()]).toEqual([1, 1]);
    now = 999;
    expect(get()).toBe(1);
    now = 1000;
    expect(get()).toBe(2);
  });

  it("drops the oldest entry past its size, keeps no rejected promise, and caches nothing with a TTL of 0", async () => {
    const cache = new TtlCache<Promise<number>>({ ttlMs: 1000, maxEntries: 2, now: () => 0 });
    let n = 0;
    const get = (key: string) => cache.get(key, async () => ++n);
    await get("a");
    await get("b");
    await get("c"); // "a" dropped
    expect(await get("b")).toBe(2);
    expect(await get("a")).toBe(4);
    const failing = cache.get("x", async () => Promise.reject(new Error("down")));
    await expect(failing).rejects.toThrow("down");
    await Promise.resolve();
    expect(await cache.get("x", async () => 7)).toBe(7);
    const none = new TtlCache<number>({ ttlMs: 0, maxEntries: 2 });
    expect([none.get("k", () => 1), none.get("k", () => 2)]).toEqual([1, 2]);
  });
});

describe("TtlCache with a keep rule", () => {
  it("keeps only the results the rule accepts, once a promise has settled", async () => {
    const cache = new TtlCache<Promise<string>>({ ttlMs: 1000, maxEntries: 10, now: () => 0, keep: (r) => r !== "none" });
    let calls = 0;
    const lookup = (result: string) =>
      cache.get("k", async () => {
        calls++;
        return result;
      });
    expect(await lookup("none")).toBe("none");
    expect(await lookup("found")).toBe("found"); // "none" was not kept
    expect(await lookup("other")).toBe("found"); // "found" was
    expect(calls).toBe(2);
    const plain = new TtlCache<number>({ ttlMs: 1000, maxEntries: 10, now: () => 0, keep: (n) => n > 1 });
    expect([plain.get("a", () => 1), plain.get("a", () => 2), plain.get("a", () => 3)]).toEqual([1, 2, 2]);
  });
});
