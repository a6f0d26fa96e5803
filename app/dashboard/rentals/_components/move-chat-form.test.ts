// "Move to another chat account" on the rental's page, for a signed-in renter (the session cookie
// through test/dashboard-session.ts), on the real database: the button, its action and the
// command it shows; nobody without the renter's session gets a command.
import { randomBytes } from "node:crypto";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ChatMoveCommand } from "@/app/_components/chat-move-command";
import { hashChatMoveToken } from "@/lib/channels/chat-move-token";
import { db } from "@/lib/db";
import { mockedCookies, mockedHeaders, redirectOf, signInNewRenter, signOutOfJar } from "@/test/dashboard-session";
import { makeAgent, makeRental } from "@/test/fixtures";
import { rentalOf } from "@/test/renter-fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies(), headers: async () => mockedHeaders() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: RentalPage } = await import("@/app/dashboard/rentals/[id]/page");
const { moveChatAction, disconnectChatAction } = await import("@/app/dashboard/rentals/actions");

type Overrides = Parameters<typeof rentalOf>[2];
async function signedInRental(overrides: Overrides = {}) {
  const { accountId } = await signInNewRenter();
  return rentalOf(
    await makeAgent({ listing: { channels: ["API", "Telegram"] } }),
    { id: accountId, walletAddress: null },
    {
      channel: "Telegram",
      ...overrides,
    },
  );
}
const render = async (id: string) => renderToStaticMarkup(await RentalPage({ params: Promise.resolve({ id }) }));
const MOVE_BUTTON = /<button type="submit" class="button"[^>]*>Move to another chat account<\/button>/;

beforeEach(signOutOfJar);

describe("Move to another chat account", () => {
  it("is offered for a running chat rental, and answers a one-time command that the page shows with the Telegram link", async () => {
    const rental = await signedInRental();
    expect(await render(rental.id)).toMatch(MOVE_BUTTON);

    const state = await moveChatAction(rental.id, null, new FormData());
    expect(state).toMatchObject({
      ok: true,
      message: "Send this command from the chat account that should have the rental.",
      move: { platform: "Telegram", token: expect.stringMatching(/^mv_/), expiresAt: expect.any(String) },
    });
    if (!("move" in state)) throw new Error("no move command");
    const { token } = state.move;
    expect(await db.chatMoveToken.findUniqueOrThrow({ where: { rentalId: rental.id } })).toMatchObject({
      tokenHash: hashChatMoveToken(token),
    });

    const links = {
      telegramBot: "agent_rental_test_bot",
      discordApplicationId: null,
      slackInstallUrl: null,
      slackAppUrl: null,
      whatsappNumber: null,
      simulated: [],
    };
    const html = renderToStaticMarkup(createElement(ChatMoveCommand, { move: state.move, links }));
    expect(html).toContain(`<code data-testid="move-command">/start ${token}</code>`);
    expect(html).toContain(`href="https://t.me/agent_rental_test_bot?start=${token}"`);
    expect(html).toContain(">Open the move in Telegram</a>");
    expect(html).toContain('aria-label="Copy move command"');
    expect(html).toMatch(/It works once, until <time dateTime="[^"]+">[^<]+ UTC<\/time>/);
  });

  it("after Disconnect chat, the page says a move command connects a chat again", async () => {
    const rental = await signedInRental();
    const chatUser = String(randomBytes(4).readUInt32BE());
    await db.rental.update({ where: { id: rental.id }, data: { chatHolder: `Telegram:${chatUser}` } });
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
    expect(await disconnectChatAction(rental.id, null, new FormData())).toMatchObject({
      ok: true,
      message: 'Disconnected. To connect a chat again, press "Move to another chat account" and send the command it gives you.',
    });
    const html = await render(rental.id);
    expect(html).toContain("Not connected: you disconnected it here. A move command connects a chat account again.");
    expect(html).toMatch(MOVE_BUTTON);
  });

  it("is not offered for an API rental or one that has ended", async () => {
    const api = await signedInRental({ channel: "API" });
    expect(await render(api.id)).not.toContain("Move to another chat account");
    const ended = await signedInRental({ startsInSeconds: -7_200, endsInSeconds: -60 });
    expect(await render(ended.id)).not.toContain("Move to another chat account");
    expect(await moveChatAction(ended.id, null, new FormData())).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^This rental ended/),
    });
  });

  it("gives no command for another renter's rental, nor to a visitor who is not signed in", async () => {
    await signInNewRenter();
    const other = await makeRental((await makeAgent({ listing: { channels: ["API", "Telegram"] } })).id, { channel: "Telegram" });
    expect(await moveChatAction(other.id, null, new FormData())).toMatchObject({
      ok: false,
      message: "This rental is not in your account.",
    });
    signOutOfJar();
    expect(await redirectOf(moveChatAction(other.id, null, new FormData()))).toBe("/sign-in");
    expect(await db.chatMoveToken.count({ where: { rentalId: other.id } })).toBe(0);
  });
});
