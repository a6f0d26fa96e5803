// Where a sign-in may lead: only a path on this site, whatever a link or a form says (no open
// redirect), and the sign-in page's address that keeps it.
import { describe, expect, it } from "vitest";
import { readSignInNext, signInPath } from "@/lib/auth/sign-in-path";

describe("readSignInNext", () => {
  it("keeps a path on this site, with its query", () => {
    for (const path of [
      "/dashboard",
      "/dashboard/rentals/0b83e3cb-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
      "/dashboard/agents/6b1f/deliveries?outcome=failed",
      "/dashboard/rentals?x=%2F%2Fevil.example", // an encoded "//" is a path's text, not a host
      "/%2F%2Fevil.example",
      "/",
    ]) {
      expect(readSignInNext(path), path).toBe(path);
    }
  });

  it("refuses every way of naming another site", () => {
    for (const value of [
      "//evil.example", // protocol-relative: another host
      "//evil.example/dashboard",
      "///evil.example",
      "/\\evil.example", // browsers read "\" as "/"
      "/\\/evil.example",
      "\\\\evil.example",
      "/\t/evil.example", // URL parsers drop tabs and newlines: "//evil.example"
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/..//evil.example", // resolves to the path "//evil.example"
      "/.//evil.example",
      "https://evil.example/dashboard",
      "http:/evil.example",
      "javascript:alert(1)",
      "data:text/html,hi",
      "evil.example",
      "dashboard",
      " /dashboard",
      "/dashboard ",
      "/dashboard/é",
      "",
      `/${"a".repeat(1024)}`, // longer than any page here
    ]) {
      expect(readSignInNext(value), JSON.stringify(value)).toBeNull();
    }
  });

  it("refuses what is not one string", () => {
    for (const value of [undefined, null, 42, ["/dashboard", "/dashboard"], { path: "/dashboard" }]) {
      expect(readSignInNext(value), JSON.stringify(value)).toBeNull();
    }
  });
});

describe("signInPath", () => {
  it("keeps the page asked for and why a link failed, encoded", () => {
    expect(signInPath({})).toBe("/sign-in");
    expect(signInPath({ next: null })).toBe("/sign-in");
    expect(signInPath({ next: "/dashboard/rentals/abc?tab=usage" })).toBe("/sign-in?next=%2Fdashboard%2Frentals%2Fabc%3Ftab%3Dusage");
    expect(signInPath({ error: "link-used", next: "/dashboard/keys" })).toBe("/sign-in?error=link-used&next=%2Fdashboard%2Fkeys");
  });
});
