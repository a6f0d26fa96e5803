import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function cookieModule(env: { NODE_ENV: string; APP_URL?: string }) {
  vi.stubEnv("NODE_ENV", env.NODE_ENV);
  vi.stubEnv("APP_URL", env.APP_URL);
  vi.resetModules(); // lib/env re-reads process.env
  return import("@/lib/auth/session-cookie");
}

describe("sessionCookie", () => {
  it("is Secure in production on an https app URL (and on a non-local http one)", async () => {
    for (const APP_URL of ["https://rent.example", "http://rent.example"]) {
      const { sessionCookie } = await cookieModule({ NODE_ENV: "production", APP_URL });
      expect(sessionCookie("t")).toBe("ars_session=t; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure");
    }
  });

  it("is not Secure in development, tests, or production on a plain-http localhost URL", async () => {
    const cases = [
      { NODE_ENV: "development", APP_URL: "https://rent.example" },
      { NODE_ENV: "test" },
      { NODE_ENV: "production", APP_URL: "http://localhost:3000" },
      { NODE_ENV: "production", APP_URL: "http://127.0.0.1:8080" },
      { NODE_ENV: "production" }, // APP_URL unset = http://localhost:$PORT
    ];
    for (const env of cases) {
      const { sessionCookie } = await cookieModule(env);
      expect(sessionCookie("t"), JSON.stringify(env)).toBe("ars_session=t; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax");
    }
  });

  it("clears with an empty value and Max-Age=0 under the same attributes", async () => {
    const { clearedSessionCookie } = await cookieModule({ NODE_ENV: "production", APP_URL: "https://rent.example" });
    expect(clearedSessionCookie()).toBe("ars_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
  });
});

describe("readSessionToken", () => {
  it("reads the cookie from a Cookie header or a cookie store", async () => {
    const { readSessionToken } = await import("@/lib/auth/session-cookie");
    const req = (cookie?: string) => new Request("http://localhost/", { headers: cookie ? { cookie } : {} });
    expect(readSessionToken(req("a=1; ars_session=tok; b=2"))).toBe("tok");
    expect(readSessionToken(req("xars_session=no; ars_session_x=no"))).toBeNull();
    expect(readSessionToken(req())).toBeNull();
    expect(readSessionToken({ get: (n) => (n === "ars_session" ? { value: "tok" } : undefined) })).toBe("tok");
  });
});
