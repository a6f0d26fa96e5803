// The checkout's hand-off to WhatsApp, on the production build at a 360 px phone width: a rental
// paid for on the WhatsApp channel shows "Open in WhatsApp" (a wa.me chat with the service's
// number, the start message typed in) and the start message to send by hand; axe finds nothing
// serious and nothing is wider than the screen. Then WhatsApp (here: a Meta-signed event to the
// real route, the platform mock standing in for the Cloud API) delivers that message and the bot
// answers it in the same chat.
import { createHmac, randomBytes, randomInt } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { tooWide } from "./capture-pages";
import { checkAccessibility } from "./check-accessibility";
import { baseUrl, keys, listAgentWithCli } from "./stack";
import { installTestWallet, TEST_WALLET_NAME } from "./test-wallet";

let echo: EchoAgent;
let agentId: string;

test.beforeAll(async () => {
  // A payout wallet of its own: an owner account is one per wallet.
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  ({ agentId, echo } = await listAgentWithCli(payout, ["--name", "WhatsApp Helper", "--price-hour", "1", "--channels", "API,WhatsApp"]));
});

test.afterAll(async () => {
  await echo?.close();
});

const settings = () => JSON.parse(process.env.E2E_SERVER_SETTINGS!) as Record<string, string>;

// What the bot sent to WhatsApp user `waId`, as the Cloud API mock recorded it.
type Call = { platform: string; body: { to?: string; text?: { body?: string } } };
const botSaid = async (waId: string): Promise<string[]> => {
  const calls: Call[] = await (await fetch(`${process.env.E2E_PLATFORM_MOCK_URL}/_calls`)).json();
  return calls.filter((c) => c.platform === "WhatsApp" && c.body.to === waId).map((c) => String(c.body.text?.body));
};

// A text message from `waId` as Meta delivers it: signed with the app secret (X-Hub-Signature-256).
async function whatsappSends(waId: string, text: string) {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "100000000000002",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: settings().WHATSAPP_PHONE_NUMBER, phone_number_id: settings().WHATSAPP_PHONE_NUMBER_ID },
              contacts: [{ profile: { name: "Ada" }, wa_id: waId }],
              messages: [
                {
                  from: waId,
                  id: `wamid.${randomBytes(12).toString("hex")}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: "text",
                  text: { body: text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const res = await fetch(`${baseUrl()}/api/channels/whatsapp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", settings().WHATSAPP_APP_SECRET).update(body).digest("hex")}`,
    },
    body,
  });
  expect(res.status).toBe(200);
}

test("a renter pays for a WhatsApp rental on a 360 px phone and is handed to WhatsApp with the start message", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await installTestWallet(page, keys.renter());

  await page.goto(`/agents/${agentId}/rent?duration=hour`);
  await page.getByRole("radio", { name: "WhatsApp" }).check();
  await page.getByRole("button", { name: `Connect with ${TEST_WALLET_NAME}` }).click();
  await expect(page.getByTestId("usdc-balance")).toContainText("USDC");
  await page.getByRole("button", { name: "Pay 2.00 USDC" }).click();

  const result = page.getByTestId("rental-result");
  await expect(result).toBeVisible({ timeout: 60_000 });
  const code = (await result.getByTestId("rental-code").textContent())!.trim();
  const number = settings().WHATSAPP_PHONE_NUMBER;
  const link = result.getByRole("link", { name: "Open in WhatsApp" });
  await expect(link).toHaveAttribute("href", `https://wa.me/${number}?text=start+${code}`);
  await expect(result.getByTestId("activation-command").first()).toHaveText(`start ${code}`);
  await expect(result).toContainText(`Or send this message to +${number}`);
  await expect(result).toContainText("status shows the time left, stop disconnects");

  await link.scrollIntoViewIfNeeded();
  await expect(link).toBeInViewport();
  expect(await tooWide(page, 360), "the checkout's result at 360 px").toEqual([]);
  await checkAccessibility(page, testInfo, "whatsapp-checkout-result-phone");

  // What the wa.me link types in, sent; then a message to the agent, answered in the same chat.
  const waId = String(randomInt(10 ** 10, 10 ** 11));
  await whatsappSends(waId, `start ${code}`);
  await expect.poll(() => botSaid(waId)).toEqual([expect.stringMatching(/^Connected to WhatsApp Helper\./)]);
  await whatsappSends(waId, "Hello from WhatsApp");
  await expect.poll(async () => (await botSaid(waId)).at(-1)).toBe("Echo: Hello from WhatsApp");
  await context.close();
});
