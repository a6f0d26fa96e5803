// Server actions posted from another site: 403 in words from the proxy, for exactly the requests
// Next.js's own check would refuse by throwing (a 500).
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { refuseCrossOriginAction } from "./refuse-cross-origin-action";

const PAGE = "http://localhost:3000/dashboard/agents";

function post(headers: Record<string, string>, url = PAGE): Request {
  return new Request(url, { method: "POST", headers: { host: new URL(url).host, ...headers }, body: "[]" });
}
const action = (origin: string | null, extra: Record<string, string> = {}) =>
  post({ "next-action": "7f00c0ffee", "content-type": "text/plain;charset=UTF-8", ...(origin ? { origin } : {}), ...extra });
const form = (origin: string) => post({ origin, "content-type": "multipart/form-data; boundary=x" });

describe("refuseCrossOriginAction", () => {
  it("answers an action fetched from another site 403 JSON, and one posted by a form 403 with a page; neither is cached", async () => {
    const fetched = refuseCrossOriginAction(action("https://evil.example"))!;
    expect(fetched.status).toBe(403);
    expect(fetched.headers.get("cache-control")).toBe("no-store");
    expect(await fetched.json()).toEqual({ error: expect.stringContaining("sent from another site") });

    const posted = refuseCrossOriginAction(form("https://evil.example"))!;
    expect(posted.status).toBe(403);
    expect(posted.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(posted.headers.get("content-security-policy")).toBe("default-src 'none'");
    const html = await posted.text();
    expect(html).toContain("<h1>Refused</h1>");
    expect(html).not.toContain("evil.example");
  });

  it("refuses every Origin Next.js would: another host or port, a sibling subdomain, the default port spelled out, 'null', garbage", () => {
    for (const origin of [
      "https://evil.example",
      "http://localhost:3001",
      "http://app.localhost:3000",
      "http://127.0.0.1:3000",
      "null", // a sandboxed frame or a file
      "not a url",
    ]) {
      expect(refuseCrossOriginAction(action(origin))?.status, origin).toBe(403);
    }
    const onPort80 = post({ origin: "http://example.com", host: "example.com:80", "next-action": "1" }, "http://example.com/");
    expect(refuseCrossOriginAction(onPort80)?.status).toBe(403);
  });

  it("lets through the site's own actions (Origin = Host, or the proxy's X-Forwarded-Host), requests without an Origin, and anything but POST", () => {
    expect(refuseCrossOriginAction(action("http://localhost:3000"))).toBeNull();
    expect(refuseCrossOriginAction(form("http://localhost:3000"))).toBeNull();
    // Behind a proxy: the public host is the forwarded one (its first value), as Next.js reads it.
    const forwarded = { host: "internal:3000", "x-forwarded-host": "app.example.com, internal:3000" };
    expect(refuseCrossOriginAction(action("https://app.example.com", forwarded))).toBeNull();
    expect(refuseCrossOriginAction(action("http://internal:3000", forwarded))?.status).toBe(403);
    // curl and other scripts send no Origin and carry no one's cookies unwillingly: Next.js decides.
    expect(refuseCrossOriginAction(action(null))).toBeNull();
    expect(refuseCrossOriginAction(new Request(PAGE, { headers: { origin: "https://evil.example" } }))).toBeNull();
  });
});

describe("proxy.ts", () => {
  it("answers a cross-site action itself, before Next.js, with no page policy or nonce; the site's own goes on to Next.js", async () => {
    const foreign = proxy(new NextRequest(action("https://evil.example")));
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("x-middleware-next")).toBeNull();
    expect(await foreign.json()).toEqual({ error: expect.any(String) });

    const own = proxy(new NextRequest(action("http://localhost:3000")));
    expect(own.headers.get("x-middleware-next")).toBe("1");
    expect(own.headers.get("content-security-policy")).toContain("'nonce-");
  });
});
