import { describe, expect, it } from "vitest";
import { credentialFromHeaders } from "@/lib/http/credential-from-headers";

describe("credentialFromHeaders", () => {
  it("prefers X-API-Key and falls back to a Bearer token", () => {
    expect(credentialFromHeaders(new Headers({ "x-api-key": "aaaaaaaa", authorization: "Bearer bbbbbbbb" }))).toBe("aaaaaaaa");
    expect(credentialFromHeaders(new Headers({ authorization: "bearer  bbbbbbbb " }))).toBe("bbbbbbbb");
    expect(credentialFromHeaders(new Headers({ authorization: "Basic Zm9vOmJhcg==" }))).toBeNull();
    expect(credentialFromHeaders(new Headers({ "x-api-key": "  " }))).toBeNull();
    expect(credentialFromHeaders(new Headers())).toBeNull();
  });
});
