import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as NONCE } from "@/app/api/auth/nonce/route";
import { POST } from "@/app/api/auth/siwe/route";
import { db } from "@/lib/db";
import { authRequest, DOMAIN, newWallet, ORIGIN, siweMessage } from "@/test/auth-fixtures";

async function nonce(): Promise<string> {
  const res = await NONCE(authRequest("nonce"));
  expect(res.status).toBe(200);
  return (await res.json()).nonce;
}

const signIn = (body: unknown, options: Parameters<typeof authRequest>[1] = {}) => POST(authRequest("siwe", { body, ...options }));

async function refused(res: Response, status: number, error: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get("set-cookie")).toBeNull();
  expect((await res.json()).error).toMatch(error);
}

describe("GET /api/auth/nonce", () => {
  it("hands out a fresh 128-bit hex nonce, stored for 10 minutes and never cached", async () => {
    const res = await NONCE(authRequest("nonce"));
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(body.nonce).not.toBe(await nonce());
    const row = await db.authNonce.findUniqueOrThrow({ where: { nonce: body.nonce } });
    expect(row.usedAt).toBeNull();
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(10 * 60_000);
    expect(new Date(body.expiresAt).getTime()).toBe(row.expiresAt.getTime());
  });
});

describe("POST /api/auth/siwe", () => {
  it("200: signs the wallet in, creates its account (lower-case address) and sets the session cookie", async () => {
    const wallet = newWallet();
    const message = siweMessage(wallet, await nonce());
    const res = await signIn({ message, signature: await wallet.signMessage({ message }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    const account = await db.account.findUniqueOrThrow({ where: { walletAddress: wallet.address.toLowerCase() } });
    expect(body).toEqual({ account: { id: account.id, walletAddress: wallet.address.toLowerCase(), email: null } });

    const cookie = res.headers.get("set-cookie")!;
    const parts = cookie.split("; ");
    expect(parts[0]).toMatch(/^ars_session=[A-Za-z0-9_-]{43}$/);
    expect(parts).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/", `Max-Age=${30 * 86_400}`]));
    expect(parts).not.toContain("Secure"); // NODE_ENV=test
    expect(res.headers.get("cache-control")).toBe("no-store");

    // The row holds the token's SHA-256 only.
    const token = parts[0].slice("ars_session=".length);
    const sessions = await db.session.findMany({ where: { accountId: account.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      tokenHash: createHash("sha256").update(token).digest("hex"),
      method: "siwe",
      userAgent: "vitest",
      revokedAt: null,
    });
    expect(JSON.stringify(sessions)).not.toContain(token);
    expect(sessions[0].expiresAt.getTime() - sessions[0].createdAt.getTime()).toBe(30 * 86_400_000);
  });

  it("signs the same wallet into the same account next time, whatever the address's case", async () => {
    const wallet = newWallet();
    const ids: string[] = [];
    for (const address of [wallet.address, wallet.address.toLowerCase() as `0x${string}`]) {
      const message = siweMessage(wallet, await nonce(), { address });
      const res = await signIn({ message, signature: await wallet.signMessage({ message }) });
      expect(res.status).toBe(200);
      ids.push((await res.json()).account.id);
    }
    expect(ids[0]).toBe(ids[1]);
    expect(await db.session.count({ where: { accountId: ids[0] } })).toBe(2);
  });

  it("signs an existing account in by its wallet (an owner with e-mail and wallet)", async () => {
    const wallet = newWallet();
    const email = `both-${randomBytes(4).toString("hex")}@example.com`;
    const existing = await db.account.create({ data: { email, walletAddress: wallet.address.toLowerCase() } });
    const message = siweMessage(wallet, await nonce());
    const res = await signIn({ message, signature: await wallet.signMessage({ message }) });
    expect((await res.json()).account).toEqual({ id: existing.id, walletAddress: wallet.address.toLowerCase(), email });
  });

  it("401: a message written for another site (domain or URI), in words", async () => {
    const wallet = newWallet();
    for (const overrides of [{ domain: "evil.example", uri: "https://evil.example" }, { uri: "https://evil.example/login" }]) {
      const n = await nonce();
      const message = siweMessage(wallet, n, overrides);
      await refused(
        await signIn({ message, signature: await wallet.signMessage({ message }) }),
        401,
        /evil\.example.*not (to|on) this site/,
      );
      // Refused before the nonce was spent: the nonce still works for a correct message.
      expect((await db.authNonce.findUniqueOrThrow({ where: { nonce: n } })).usedAt).toBeNull();
    }
    const wrongPort = siweMessage(wallet, await nonce(), {
      domain: `${new URL(ORIGIN).hostname}:1`,
      uri: `${new URL(ORIGIN).protocol}//${new URL(ORIGIN).hostname}:1`,
    });
    await refused(
      await signIn({ message: wrongPort, signature: await wallet.signMessage({ message: wrongPort }) }),
      401,
      new RegExp(`not to this site \\(${DOMAIN}\\)`),
    );
  });

  it("401: a nonce works once, also when two requests race with it", async () => {
    const wallet = newWallet();
    const message = siweMessage(wallet, await nonce());
    const body = { message, signature: await wallet.signMessage({ message }) };
    const [a, b] = await Promise.all([signIn(body), signIn(body)]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
    await refused(await signIn(body), 401, /already used \(each nonce works once\).*GET \/api\/auth\/nonce/);
  });

  it("401: a nonce this site never issued", async () => {
    const wallet = newWallet();
    for (const n of [randomBytes(16).toString("hex"), "abcdefgh12345678"]) {
      const message = siweMessage(wallet, n);
      await refused(await signIn({ message, signature: await wallet.signMessage({ message }) }), 401, /nonce was not issued by this site/);
    }
  });

  it("401: an expired nonce (older than 10 minutes)", async () => {
    const wallet = newWallet();
    const n = await nonce();
    await db.authNonce.update({ where: { nonce: n }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const message = siweMessage(wallet, n);
    await refused(
      await signIn({ message, signature: await wallet.signMessage({ message }) }),
      401,
      /nonce has expired \(nonces last 10 minutes\)/,
    );
  });

  it("401: a message past its Expiration Time, or before its Not Before", async () => {
    const wallet = newWallet();
    const expired = siweMessage(wallet, await nonce(), { expirationTime: new Date(Date.now() - 60_000) });
    await refused(
      await signIn({ message: expired, signature: await wallet.signMessage({ message: expired }) }),
      401,
      /sign-in message expired at .*sign a new one/,
    );
    const early = siweMessage(wallet, await nonce(), { notBefore: new Date(Date.now() + 3_600_000) });
    await refused(await signIn({ message: early, signature: await wallet.signMessage({ message: early }) }), 401, /not valid before/);
    // A message that expires later is fine.
    const later = siweMessage(wallet, await nonce(), { expirationTime: new Date(Date.now() + 60_000) });
    expect((await signIn({ message: later, signature: await wallet.signMessage({ message: later }) })).status).toBe(200);
  });

  it("401: a signature by another key, or over other text; the nonce is spent either way", async () => {
    const wallet = newWallet();
    const n = await nonce();
    const message = siweMessage(wallet, n);
    await refused(
      await signIn({ message, signature: await newWallet().signMessage({ message }) }),
      401,
      new RegExp(`does not match the message: it was not signed by ${wallet.address}`),
    );
    expect((await db.authNonce.findUniqueOrThrow({ where: { nonce: n } })).usedAt).not.toBeNull();
    // The right key, once the nonce is spent, is refused too: one try per nonce.
    await refused(await signIn({ message, signature: await wallet.signMessage({ message }) }), 401, /already used/);

    const other = siweMessage(wallet, await nonce());
    await refused(await signIn({ message: other, signature: await wallet.signMessage({ message: `${other}\n` }) }), 401, /does not match/);
    await refused(await signIn({ message: siweMessage(wallet, await nonce()), signature: `0x${"11".repeat(65)}` }), 401, /does not match/);
    expect(await db.account.count({ where: { walletAddress: wallet.address.toLowerCase() } })).toBe(0);
  });

  it("400: a malformed message or body, in words", async () => {
    const wallet = newWallet();
    const good = siweMessage(wallet, await nonce());
    const signature = await wallet.signMessage({ message: good });
    const cases: [unknown, RegExp][] = [
      [{ message: "hello", signature }, /message: not a Sign-In with Ethereum \(EIP-4361\) message/],
      [{ message: good.replace(/\nNonce: .*/, ""), signature }, /message: not a Sign-In with Ethereum .*nonce/],
      [{ message: good.replace("Version: 1", "Version: 2"), signature }, /message: Version must be 1/],
      [{ message: good.replace(/Issued At: .*/, "Issued At: yesterday"), signature }, /message: issuedAt is not an RFC 3339 time/],
      [{ signature }, /message: is required/],
      [{ message: good }, /signature: is required/],
      [{ message: good, signature: "not hex" }, /signature: must be the wallet's 0x-prefixed hex signature/],
      [{ message: "x".repeat(5_000), signature }, /message: must be at most 4,096 characters/],
      [{ message: good, signature, extra: 1 }, /unknown field "extra"/],
      [[], /body must be a JSON object/],
    ];
    for (const [body, error] of cases) await refused(await signIn(body), 400, error);
    await refused(await signIn(undefined, { rawBody: "{", headers: { "content-type": "application/json" } }), 400, /not valid JSON/);
    await refused(
      await signIn(undefined, {
        rawBody: "message=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      400,
      /Content-Type must be application\/json/,
    );
  });
});
