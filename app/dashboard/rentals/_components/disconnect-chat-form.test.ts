// The rental page's chat fact and its "Disconnect chat" action, for a signed-in renter (the session
// cookie through test/dashboard-session.ts), on the real database.
import { randomBytes } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { mockedCookies, signInNewRenter } from "@/test/dashboard-session";
import { makeAgent, makeRental } from "@/test/fixtures";
import { rentalOf } from "@/test/renter-fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: RentalPage } = await import("@/app/dashboard/rentals/[id]/page");
const { disconnectChatAction } = await import("@/app/dashboard/rentals/actions");

async function signedInRental(channel: "Telegram" | "API") {
  const { accountId } = await signInNewRenter();
  return rentalOf(await makeAgent(), { id: accountId, walletAddress: null }, { channel });
}
const render = async (id: string) => renderToStaticMarkup(await RentalPage({ params: Promise.resolve({ id }) }));

describe("the rental page's chat", () => {
  it("shows who holds a chat rental, and Disconnect chat takes it back", async () => {
    const rental = await signedInRental("Telegram");
    expect(await render(rental.id)).toContain("Not connected: send the start command with your code to the Telegram bot.");
    const chatUser = String(randomBytes(4).readUInt32BE());
    await db.chatBinding.create({
      data: {
        platform: "Telegram",
        chatUser,
        chatId: chatUser,
        chatLabel: "@ada",
        rentalId: rental.id,
        openUser: `Telegram:${chatUser}`,
        openRentalId: rental.id,
      },
    });
    const html = await render(rental.id);
    expect(html).toMatch(/data-testid="bound-chat">@ada on Telegram</);
    expect(html).toMatch(/<button type="submit" class="button"[^>]*>Disconnect chat<\/button>/);

    const state = await disconnectChatAction(rental.id, null, new FormData());
    expect(state).toMatchObject({ ok: true, message: expect.stringContaining("Disconnected") });
    expect(await db.chatBinding.count({ where: { rentalId: rental.id, endedAt: null } })).toBe(0);
    // A second press: nothing left to disconnect, said in words.
    expect(await disconnectChatAction(rental.id, null, new FormData())).toMatchObject({
      ok: false,
      message: "No chat is connected to this rental.",
    });
  });

  it("shows no chat fact for an API rental, and refuses another renter's rental", async () => {
    const rental = await signedInRental("API");
    expect(await render(rental.id)).not.toContain("Disconnect chat");
    const other = await makeRental((await makeAgent()).id, { channel: "Telegram" });
    expect(await disconnectChatAction(other.id, null, new FormData())).toMatchObject({
      ok: false,
      message: "This rental is not in your account.",
    });
  });
});
