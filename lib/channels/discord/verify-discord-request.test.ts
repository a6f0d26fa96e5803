// Discord's proof on real Ed25519 signatures (a test key pair), with the clock given to the check:
// the signature first, then the signed time at most 5 minutes old and at most a minute ahead.
import { generateKeyPairSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { signedDiscordRequest } from "@/lib/channels/dev/discord-requests";
import { verifyDiscordRequest } from "@/lib/channels/discord/verify-discord-request";
import { env } from "@/lib/env";

const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const NOW = new Date("2026-11-26T12:00:00.000Z");
const nowSeconds = NOW.getTime() / 1000;

beforeAll(() => {
  Object.assign(env, { DISCORD_PUBLIC_KEY: publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex") });
});

async function verifyAt(timestamp: string, key = privateKey, now = NOW) {
  const req = signedDiscordRequest("http://localhost/api/channels/discord", key, { id: "1", type: 2 }, timestamp);
  return verifyDiscordRequest(req.headers, Buffer.from(await req.arrayBuffer()), now);
}

describe("verifyDiscordRequest", () => {
  it("accepts an interaction signed up to 5 minutes before now, and up to a minute after it", async () => {
    for (const offset of [0, -1, -300, 1, 60]) expect(await verifyAt(String(nowSeconds + offset)), `offset ${offset}`).toBe(true);
  });

  it("refuses one signed more than 5 minutes ago, or more than a minute ahead, however well signed", async () => {
    for (const offset of [-301, -3_600, -86_400 * 365, 61, 3_600]) {
      expect(await verifyAt(String(nowSeconds + offset)), `offset ${offset}`).toBe(false);
    }
  });

  it("the same request passes at one time and not 5 minutes later: the clock decides, not the machine", async () => {
    const stamp = String(nowSeconds);
    expect(await verifyAt(stamp, privateKey, new Date(NOW.getTime() + 300_000))).toBe(true);
    expect(await verifyAt(stamp, privateKey, new Date(NOW.getTime() + 301_000))).toBe(false);
  });

  it("refuses a signed timestamp that is not whole Unix seconds", async () => {
    for (const stamp of [`${nowSeconds}.5`, "-1", "soon", `${nowSeconds}000000`, " 1"]) expect(await verifyAt(stamp), stamp).toBe(false);
  });

  it("refuses a fresh timestamp signed by another key, or a body changed after signing", async () => {
    const stranger = generateKeyPairSync("ed25519").privateKey;
    expect(await verifyAt(String(nowSeconds), stranger)).toBe(false);
    const req = signedDiscordRequest("http://localhost/api/channels/discord", privateKey, { id: "1", type: 2 }, String(nowSeconds));
    expect(verifyDiscordRequest(req.headers, Buffer.from('{"id":"2","type":2}'), NOW)).toBe(false);
  });
});
