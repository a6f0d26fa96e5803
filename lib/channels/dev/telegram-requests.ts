import "server-only";
import { randomInt } from "node:crypto";

// Requests as Telegram sends them to the bot's route, signed with the given secret token: for the
// tests and the /dev/channels page (development only), which go through the real route and its
// real verification.

// A random start: test files run side by side on one database, and two that started in the same
// moment from the clock would claim each other's update ids.
let nextUpdateId = randomInt(1, 2 ** 47);

/** A Telegram webhook delivery of a private-chat text message from `user`. */
export function telegramMessageRequest(
  url: string,
  secret: string,
  user: { id: number; username?: string },
  text: string,
  updateId: number = nextUpdateId++,
): Request {
  const update = {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      from: { id: user.id, is_bot: false, first_name: user.username ?? "Test", username: user.username },
      chat: { id: user.id, type: "private" },
      text,
    },
  };
  return new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret },
    body: JSON.stringify(update),
  });
}
