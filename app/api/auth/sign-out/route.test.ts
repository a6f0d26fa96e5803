// Sign-out only from this site's own pages, only by POST: another site's form or script cannot
// sign a visitor out (its request is refused and the session row stays valid), nor can a link.
import { describe, expect, it } from "vitest";
import { GET as SESSION } from "@/app/api/auth/session/route";
import { GET, POST } from "@/app/api/auth/sign-out/route";
import { hashAuthToken } from "@/lib/auth/auth-token";
import { db } from "@/lib/db";
import { authRequest, ORIGIN, signInWithWallet } from "@/test/auth-fixtures";

const sessionRow = (cookie: string) =>
  db.session.findUniqueOrThrow({ where: { tokenHash: hashAuthToken(cookie.slice("ars_session=".length)) } });
const stillSignedIn = async (cookie: string) => expect((await SESSION(authRequest("session", { cookie }))).status).toBe(200);

describe("POST /api/auth/sign-out: same origin only", () => {
  it("403 for a cross-site request (Sec-Fetch-Site), and the session stays", async () => {
    const { cookie } = await signInWithWallet();
    for (const site of ["cross-site", "same-site", "none"]) {
      const res = await POST(authRequest("sign-out", { method: "POST", cookie, headers: { "sec-fetch-site": site, origin: ORIGIN } }));
      expect(res.status, site).toBe(403);
      expect((await res.json()).error).toBe(
        "Sign out from this site's own pages: this request did not come from them, so nothing was changed.",
      );
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect((await sessionRow(cookie)).revokedAt).toBeNull();
    await stillSignedIn(cookie);
  });

  it("403 for another origin, or a request that says neither where it comes from (older browsers send Origin only)", async () => {
    const { cookie } = await signInWithWallet();
    expect(
      (
        await POST(
          authRequest("sign-out", {
            method: "POST",
            cookie,
            body: { everywhere: true },
            headers: { origin: "https://evil.example" },
          }),
        )
      ).status,
    ).toBe(403);
    expect((await POST(authRequest("sign-out", { method: "POST", cookie, headers: { origin: "null" } }))).status).toBe(403);
    expect((await POST(authRequest("sign-out", { method: "POST", cookie }))).status).toBe(403);
    await stillSignedIn(cookie);
  });

  it("204 from this site's pages: the session row is revoked and the cookie cleared", async () => {
    const viaFetchMetadata = await signInWithWallet();
    const res = await POST(
      authRequest("sign-out", {
        method: "POST",
        cookie: viaFetchMetadata.cookie,
        headers: { "sec-fetch-site": "same-origin" },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/^ars_session=; .*Max-Age=0/);
    expect((await sessionRow(viaFetchMetadata.cookie)).revokedAt).not.toBeNull();

    const viaOrigin = await signInWithWallet();
    expect((await POST(authRequest("sign-out", { method: "POST", cookie: viaOrigin.cookie, headers: { origin: ORIGIN } }))).status).toBe(
      204,
    );
    expect((await sessionRow(viaOrigin.cookie)).revokedAt).not.toBeNull();
  });

  it("GET never signs out (405), even from this site", async () => {
    const { cookie } = await signInWithWallet();
    const get = GET as (req: Request) => Response | Promise<Response>;
    const res = await get(authRequest("sign-out", { cookie, headers: { "sec-fetch-site": "same-origin" } }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await sessionRow(cookie)).revokedAt).toBeNull();
    await stillSignedIn(cookie);
  });
});
