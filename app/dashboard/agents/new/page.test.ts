import { beforeEach, describe, expect, it, vi } from "vitest";
import { expectLabelled, html } from "@/test/dashboard-pages";
import { mockedCookies, signInNewOwner } from "@/test/dashboard-session";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: NewListing } = await import("@/app/dashboard/agents/new/page");

beforeEach(async () => {
  await signInNewOwner();
});

describe("owner dashboard pages", () => {
  it("the new-listing form: labelled fields, the category's skills suggested (not applied), a Create listing button", async () => {
    const markup = html(await NewListing());
    expectLabelled(markup);
    for (const label of ["Name", "Category", "Description", "Skills", "Price per hour", "Price per day", "Price per month"]) {
      expect(markup).toMatch(new RegExp(`<label for="[^"]+">${label}</label>`));
    }
    expect(markup).toContain("<legend>Channels</legend>");
    expect(markup).toMatch(/<input id="[^"]+-skills"[^>]* name="skills" value=""\/>/);
    expect(markup).not.toContain("Remove skill");
    expect(markup).toContain("Suggested for this category:");
    for (const tag of ["scheduling", "email", "research"])
      expect(markup).toContain(`${tag}<span class="visually-hidden"> (add this skill)</span>`);
    expect(markup).toMatch(/<button type="submit"[^>]*>Create listing<\/button>/);
    // The uptime guarantee, 99 by default, with what it means for the owner.
    expect(markup).toMatch(
      /<label for="([^"]+-guarantee)">Uptime guarantee \(%\)<\/label><input id="\1"[^>]* name="guaranteePercent"[^>]* value="99"/,
    );
    expect(markup).toContain("down minutes beyond what this allows are refunded to the renter automatically.");
  });
});
