// A listing's picture from the dashboard: checked by its bytes, stored, served to the marketplace,
// removable; never another account's listing.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { findMarketplaceAgent } from "@/lib/agents/find-marketplace-agent";
import { databaseAvatarStore } from "@/lib/avatars/avatar-store";
import { mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, makeOwnerAgent } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { removePictureAction, uploadPictureAction } = await import("@/app/dashboard/agents/picture-actions");

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
const withFile = (bytes: Uint8Array, name: string, type: string) => {
  const form = new FormData();
  form.set("picture", new File([Uint8Array.from(bytes)], name, { type }));
  return form;
};

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("the listing's picture", () => {
  it("uploads a PNG, which the marketplace then shows, and removes it again", async () => {
    const agent = await makeOwnerAgent(owner.id);
    expect(await uploadPictureAction(agent.id, null, withFile(PNG, "me.png", "image/png"))).toEqual({
      ok: true,
      message: "Saved. The marketplace shows the new picture now.",
    });
    const stored = await databaseAvatarStore.get(agent.id);
    expect(stored).toMatchObject({ contentType: "image/png", data: PNG });
    expect((await findMarketplaceAgent(agent.id))?.avatarVersion).toBe(stored!.version);

    expect(await removePictureAction(agent.id, null, new FormData())).toMatchObject({ ok: true });
    expect(await databaseAvatarStore.get(agent.id)).toBeNull();
    expect((await findMarketplaceAgent(agent.id))?.avatarVersion).toBeNull();
  });

  it("refuses an SVG sent as a PNG, and no file at all, in words; nothing is stored", async () => {
    const agent = await makeOwnerAgent(owner.id);
    const svg = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>");
    expect(await uploadPictureAction(agent.id, null, withFile(svg, "evil.png", "image/png"))).toMatchObject({
      ok: false,
      message: "That file is not a PNG, JPEG or WebP image. Save the picture in one of those formats and try again.",
    });
    expect(await uploadPictureAction(agent.id, null, new FormData())).toMatchObject({ ok: false, message: "Choose an image file first." });
    expect(await databaseAvatarStore.get(agent.id)).toBeNull();
  });

  it("cannot touch another account's listing", async () => {
    const theirs = await makeOwnerAgent((await makeOwner()).id);
    expect(await uploadPictureAction(theirs.id, null, withFile(PNG, "me.png", "image/png"))).toMatchObject({
      ok: false,
      message: "Agent not found: no agent with this id belongs to your account.",
    });
    expect(await databaseAvatarStore.get(theirs.id)).toBeNull();
  });
});
