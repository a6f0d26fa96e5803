import { describe, expect, it } from "vitest";
import { DELETE, GET, POST } from "@/app/api/public/[...path]/route";

describe("unknown /api/public paths", () => {
  it("404 in the error form, naming the endpoints that exist, without CORS", async () => {
    for (const handler of [GET, POST, DELETE]) {
      const res = handler();
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect((await res.json()).error).toMatch(/\/public\/agents.*\/public\/stats/);
    }
  });
});
