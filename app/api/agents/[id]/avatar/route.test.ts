import { describe, expect, it } from "vitest";
import { databaseAvatarStore } from "@/lib/avatars/avatar-store";
import { makeAgent } from "@/test/fixtures";
import { GET, POST } from "./route";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const get = (id: string, headers: Record<string, string> = {}) => GET(new Request(`http://localhost/api/agents/${id}/avatar`, { headers }));

describe("GET /api/agents/{id}/avatar", () => {
  it("serves the uploaded picture with its type, a strong ETag, nosniff and a sandboxing CSP; 304 when unchanged", async () => {
    const agent = await makeAgent();
    const { version } = await databaseAvatarStore.put(agent.id, { contentType: "image/png", data: PNG });
    const res = await get(agent.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("etag")).toBe(`"${version}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    const again = await get(agent.id, { "If-None-Match": `"${version}"` });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("404 JSON for an agent without one, an unknown agent or a bad id; 405 for other methods", async () => {
    const agent = await makeAgent();
    for (const id of [agent.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const res = await get(id);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "This agent has no uploaded picture." });
    }
    expect((await POST()).status).toBe(405);
  });

  it("a removed picture is gone", async () => {
    const agent = await makeAgent();
    await databaseAvatarStore.put(agent.id, { contentType: "image/png", data: PNG });
    await databaseAvatarStore.remove(agent.id);
    expect((await get(agent.id)).status).toBe(404);
  });
});
