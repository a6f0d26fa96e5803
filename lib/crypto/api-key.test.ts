import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "@/lib/crypto/api-key";

describe("generateApiKey", () => {
  it("makes rck_ + 28 base62 characters, a 12-character display prefix and the SHA-256 hex", () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^rck_[0-9A-Za-z]{28}$/);
    expect(prefix).toBe(key.slice(0, 12));
    expect(prefix).toMatch(/^rck_[0-9A-Za-z]{8}$/);
    expect(hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).toBe(hash);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it("never repeats over 1,000 keys, and uses the whole alphabet", () => {
    const keys = Array.from({ length: 1_000 }, () => generateApiKey());
    expect(new Set(keys.map((k) => k.key)).size).toBe(1_000);
    expect(new Set(keys.map((k) => k.hash)).size).toBe(1_000);
    expect(keys.every((k) => isWellFormedApiKey(k.key))).toBe(true);
    const seen = new Set(keys.flatMap((k) => [...k.key.slice(4, 26)]));
    expect(seen.size).toBe(62);
  });
});

describe("isWellFormedApiKey", () => {
  const { key } = generateApiKey();
  const swap = (s: string, i: number) => s.slice(0, i) + (s[i] === "a" ? "b" : "a") + s.slice(i + 1);

  it("catches a mistyped character anywhere in the random part or the checksum", () => {
    for (let i = 4; i < key.length; i++) expect(isWellFormedApiKey(swap(key, i)), `position ${i}`).toBe(false);
  });

  it("rejects other shapes", () => {
    for (const bad of [
      "",
      "rck_",
      key.slice(0, -1),
      `${key}x`,
      key.replace("rck_", "rk_x"),
      key.replace("rck_", "RCK_"),
      ` ${key}`,
      `${key.slice(0, 20)}-${key.slice(21)}`,
    ]) {
      expect(isWellFormedApiKey(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
