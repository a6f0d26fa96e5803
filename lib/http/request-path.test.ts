// The page a request asked for, as proxy.ts hands it to server components (they get no URL).
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { REQUEST_PATH_HEADER, requestPath } from "@/lib/http/request-path";
import { proxy } from "@/proxy";

describe("requestPath", () => {
  it("is the path and query, without Next.js's _rsc cache key", () => {
    expect(requestPath(new URL("https://rent.example/dashboard/rentals/abc"))).toBe("/dashboard/rentals/abc");
    expect(requestPath(new URL("https://rent.example/dashboard/agents/x/deliveries?outcome=failed&_rsc=1a2b3"))).toBe(
      "/dashboard/agents/x/deliveries?outcome=failed",
    );
    expect(requestPath(new URL("https://rent.example/dashboard?_rsc=1a2b3"))).toBe("/dashboard");
  });
});

describe("proxy.ts", () => {
  it("hands the page's path to server components, replacing any value the client sent", () => {
    const res = proxy(
      new NextRequest("http://localhost:3000/dashboard/rentals/abc?tab=usage", { headers: { [REQUEST_PATH_HEADER]: "//evil.example" } }),
    );
    // Next.js passes the proxy's request headers on as overrides.
    expect(res.headers.get("x-middleware-override-headers")).toContain(REQUEST_PATH_HEADER);
    expect(res.headers.get(`x-middleware-request-${REQUEST_PATH_HEADER}`)).toBe("/dashboard/rentals/abc?tab=usage");
  });
});
