import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSecretBox, decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";

const KEY_A = randomBytes(32).toString("base64");
const KEY_B = randomBytes(32).toString("base64");
const AAD = "agent:0b6f8a52-4c1e-4a51-9d8e-2f0f4f6a7b10:webhook_url";
const SECRET = "https://agent.example.com/hook?token=s3cr3t";

// Replaces one base64url character of part `index` (1 = key id … 4 = tag) with another.
function tamper(ciphertext: string, index: number): string {
  const parts = ciphertext.split(".");
  const part = parts[index];
  parts[index] = (part[0] === "A" ? "B" : "A") + part.slice(1);
  return parts.join(".");
}

describe("encryptSecret / decryptSecret (the keyring from env)", () => {
  it("round-trips, with a fresh IV each time, in the v1 format", () => {
    const one = encryptSecret(SECRET, AAD);
    const two = encryptSecret(SECRET, AAD);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^v1\.t1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(one.split(".")[2], "base64url")).toHaveLength(12);
    expect(one).not.toContain(SECRET);
    expect(decryptSecret(one, AAD)).toBe(SECRET);
    expect(decryptSecret(encryptSecret("", AAD), AAD)).toBe("");
    expect(decryptSecret(encryptSecret("ünïcødé ✓", AAD), AAD)).toBe("ünïcødé ✓");
  });

  it("refuses a value moved to another row or column (AAD)", () => {
    const sealed = encryptSecret(SECRET, AAD);
    expect(() => decryptSecret(sealed, AAD.replace("webhook_url", "webhook_token"))).toThrow(/authentication failed/);
    expect(() => decryptSecret(sealed, "agent:another:webhook_url")).toThrow(/authentication failed/);
  });

  it("refuses tampered or malformed values, with messages that reveal nothing", () => {
    const sealed = encryptSecret(SECRET, AAD);
    for (const index of [2, 3, 4]) {
      let message = "";
      try {
        decryptSecret(tamper(sealed, index), AAD);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, `part ${index}`).toMatch(/authentication failed/);
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain(sealed.split(".")[3]);
    }
    expect(() => decryptSecret(sealed.split(".").slice(0, 4).join("."), AAD)).toThrow(/format/);
    expect(() => decryptSecret(sealed.replace(/\.[^.]+$/, ".AAAA"), AAD)).toThrow(/format/); // short tag
    expect(() => decryptSecret(sealed.replace(/^v1/, "v2"), AAD)).toThrow(/format/);
    expect(() => decryptSecret(sealed.replace(/^v1\.t1/, "v1.gone"), AAD)).toThrow(/key "gone" is not in SECRET_BOX_KEYS/);
  });
});

describe("createSecretBox", () => {
  it("rotates: values under the old key still open, new values use the first key", () => {
    const oldRing = createSecretBox(`a:${KEY_A}`);
    const sealed = oldRing.encrypt(SECRET, AAD);
    expect(sealed.startsWith("v1.a.")).toBe(true);

    const newRing = createSecretBox(`b:${KEY_B}, a:${KEY_A}`);
    expect(newRing.decrypt(sealed, AAD)).toBe(SECRET);
    const resealed = newRing.encrypt(SECRET, AAD);
    expect(resealed.startsWith("v1.b.")).toBe(true);
    expect(newRing.decrypt(resealed, AAD)).toBe(SECRET);
    expect(() => oldRing.decrypt(resealed, AAD)).toThrow(/key "b"/);
  });

  it("derives a 32-byte key per purpose from the current (first) key, which changes when it rotates", () => {
    const box = createSecretBox(`a:${KEY_A},b:${KEY_B}`);
    const key = box.deriveKey("known-credentials/v1");
    expect(key).toHaveLength(32);
    expect(box.deriveKey("known-credentials/v1")).toEqual(key);
    expect(createSecretBox(`a:${KEY_A}`).deriveKey("known-credentials/v1")).toEqual(key);
    expect(box.deriveKey("another purpose")).not.toEqual(key);
    expect(createSecretBox(`b:${KEY_B},a:${KEY_A}`).deriveKey("known-credentials/v1")).not.toEqual(key);
    expect(key).not.toEqual(Buffer.from(KEY_A, "base64"));
  });

  it("refuses a value whose key id names a different key", () => {
    const sealed = createSecretBox(`a:${KEY_A}`).encrypt(SECRET, AAD);
    expect(() => createSecretBox(`a:${KEY_B}`).decrypt(sealed, AAD)).toThrow(/authentication failed/);
  });

  it("rejects a malformed keyring without echoing key material", () => {
    const short = randomBytes(16).toString("base64");
    const cases: [string, RegExp][] = [
      [`a:${short}`, /key "a" must be 32 bytes/],
      [KEY_A, /entry 1 is not "id:base64key"/],
      [`a:${KEY_A},b.c:${KEY_B}`, /entry 2/],
      [`a:${KEY_A},a:${KEY_B}`, /"a" twice/],
      ["", /entry 1/],
    ];
    for (const [keyring, expected] of cases) {
      let message = "";
      try {
        createSecretBox(keyring);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(expected);
      for (const key of [KEY_A, KEY_B, short]) expect(message).not.toContain(key);
    }
  });
});

describe("without SECRET_BOX_KEYS", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
    vi.restoreAllMocks();
  });

  async function freshSecretBox(nodeEnv: string) {
    vi.stubEnv("SECRET_BOX_KEYS", undefined);
    vi.stubEnv("NODE_ENV", nodeEnv);
    vi.resetModules(); // re-reads env
    return import("@/lib/crypto/secret-box");
  }

  it("production: loads, then refuses at first use with a message saying what to set", async () => {
    const { encryptSecret: encrypt } = await freshSecretBox("production");
    expect(() => encrypt(SECRET, AAD)).toThrow(/SECRET_BOX_KEYS is not set/);
  });

  it('development: falls back to the insecure key "dev" and says so', async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { encryptSecret: encrypt, decryptSecret: decrypt } = await freshSecretBox("development");
    const sealed = encrypt(SECRET, AAD);
    expect(sealed.startsWith("v1.dev.")).toBe(true);
    expect(decrypt(sealed, AAD)).toBe(SECRET);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/insecure/);
  });
});
