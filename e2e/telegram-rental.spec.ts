// A rental bought for Telegram, end to end on the production build: the checkout offers the bot
// and shows its deep link; Telegram (here: signed updates to the real route, the platform mock
// recording the bot's answers) delivers `/start <code>` and a message; the echo agent answers
// through the same chat path as the API. Another account needs the checkout's move command. The
// result leads on to the rental's page and playground, through the sign-in for a visitor.
import { randomInt } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { baseUrl, keys, listAgentWithCli, runCron } from "./stack";
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

test("a renter buys a Telegram rental, starts it from the deep link, chats there and moves it to another account", async ({ browser }) => {
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

  // Another Telegram account with the code alone is refused; the checkout page, which paid, makes
  // a one-time move command that moves the rental there, and the first account is told.
  const other = randomInt(1, 2 ** 40);
  await telegramSends(other, `/start ${code}`);
  await expect.poll(async () => (await botSaid(other)).at(-1)).toMatch(/^This rental is held by another Telegram account/);
  await result.getByRole("button", { name: "Move to another chat account" }).click();
  const command = result.getByTestId("move-command");
  await expect(command).toHaveText(/^\/start mv_[A-Za-z0-9_-]{22}$/);
  const move = (await command.textContent())!;
  await expect(result.getByRole("link", { name: "Open the move in Telegram" })).toHaveAttribute(
    "href",
    `https://t.me/agent_rental_e2e_bot?start=${move.slice("/start ".length)}`,
  );
  await telegramSends(other, move);
  await expect.poll(async () => (await botSaid(other)).at(-1)).toMatch(/^Connected to Telegram Helper\. It was moved here/);
  // The old account's notice is queued with the move and sent by the sender cron.
  await expect
    .poll(async () => {
      await runCron("send-messages");
      return (await botSaid(user)).at(-1);
    })
    .toMatch(/was moved to another Telegram account from the renter's dashboard/);
  // Used once: it moves nothing a second time.
  await telegramSends(user, move);
  await expect.poll(async () => (await botSaid(user)).at(-1)).toMatch(/^This move command does not work/);

  // The result leads on to the rental's page and its playground. This browser never signed in, so
  // the links go through the sign-in (with the wallet that paid), which comes back to the page.
  const rentalPath = new RegExp(`%2Fdashboard%2Frentals%2F${code}[0-9a-f-]{28}`);
  const playground = result.getByRole("link", { name: "Open the playground" });
  await expect(playground).toHaveAttribute("href", new RegExp(`^/sign-in\\?next=${rentalPath.source}%23playground$`));
  await expect(result.getByRole("link", { name: "Open your rental's page" })).toHaveAttribute(
    "href",
    new RegExp(`^/sign-in\\?next=${rentalPath.source}$`),
  );
  await playground.click();
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await page.waitForURL(new RegExp(`/dashboard/rentals/${code}[0-9a-f-]{28}#playground$`));
  await expect(page.getByRole("heading", { name: "Playground" })).toBeInViewport();
  await expect(page.getByLabel("Message to Telegram Helper")).toBeEnabled();
  await context.close();
});
