// A rental bought for Telegram, end to end on the production build: the checkout offers the bot
// and shows its deep link; Telegram (here: signed updates to the real route, the platform mock
// recording the bot's answers) delivers `/start <code>` and a message; the echo agent answers
// through the same chat path as the API.
import { randomInt } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { baseUrl, keys, listAgentWithCli } from "./stack";
import { installTestWallet, TEST_WALLET_NAME } from "./test-wallet";

let echo: EchoAgent;
let agentId: string;

test.beforeAll(async () => {
  // A payout wallet of its own: an owner account is one per wallet.
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  ({ agentId, echo } = await listAgentWithCli(payout, [
    "--name",
    "Telegram Helper",
    "--price-hour",
    "1",
    "--channels",
    "API,Telegram,Slack",
  ]));
});

test.afterAll(async () => {
  await echo?.close();
});

type Call = { method: string; body: Record<string, unknown> };
const botSaid = async (chatId: number): Promise<string[]> => {
  const calls: Call[] = await (await fetch(`${process.env.E2E_PLATFORM_MOCK_URL}/_calls`)).json();
  return calls.filter((c) => c.method === "sendMessage" && c.body.chat_id === String(chatId)).map((c) => String(c.body.text));
};

async function telegramSends(userId: number, text: string) {
  const settings = JSON.parse(process.env.E2E_SERVER_SETTINGS!);
  const updateId = randomInt(1, 2 ** 47);
  const res = await fetch(`${baseUrl()}/api/channels/telegram`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Telegram-Bot-Api-Secret-Token": settings.TELEGRAM_WEBHOOK_SECRET,
    },
    body: JSON.stringify({
      update_id: updateId,
      message: {
        message_id: 1,
        date: 0,
        from: { id: userId, is_bot: false, first_name: "Ada" },
        chat: { id: userId, type: "private" },
        text,
      },
    }),
  });
  expect(res.status).toBe(200);
}

test("a renter buys a Telegram rental, opens the bot from the deep link and chats with the agent there", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, keys.renter());

  await page.goto(`/agents/${agentId}/rent?duration=hour`);
  // Slack is listed by the agent but this service runs no Slack bot: not offered.
  await expect(page.getByRole("radio", { name: "Slack" })).toHaveCount(0);
  await page.getByRole("radio", { name: "Telegram" }).check();
  await page.getByRole("button", { name: `Connect with ${TEST_WALLET_NAME}` }).click();
  await expect(page.getByTestId("usdc-balance")).toContainText("USDC");
  await page.getByRole("button", { name: "Pay 2.00 USDC" }).click();

  const result = page.getByTestId("rental-result");
  await expect(result).toBeVisible({ timeout: 60_000 });
  const code = (await result.getByTestId("rental-code").textContent())!.trim();
  const link = result.getByRole("link", { name: "Open in Telegram" });
  await expect(link).toHaveAttribute("href", `https://t.me/agent_rental_e2e_bot?start=${code}`);
  await expect(result.getByTestId("activation-command").first()).toHaveText(`/start ${code}`);

  // What the deep link makes Telegram send, then a message.
  const user = randomInt(1, 2 ** 40);
  await telegramSends(user, `/start ${code}`);
  await expect.poll(() => botSaid(user)).toEqual([expect.stringContaining("Connected to Telegram Helper")]);
  await telegramSends(user, "Hello from Telegram");
  await expect.poll(async () => (await botSaid(user)).at(-1)).toBe("Echo: Hello from Telegram");
  await context.close();
});
