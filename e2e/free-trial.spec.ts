// A free trial as a renter meets it (issue 29), against npm start with the echo agent: the
// marketplace tile and the agent page say "Try 2 messages free"; signed in by e-mail, "Start free
// trial" shows the trial's code, which the playground uses like a rental code: two answers, then
// the 402's sentence with the link to rent; GET /api/v1/status shows status active and 0 left.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { signInByEmail } from "./email-sign-in";
import { baseUrl, listAgentWithCli, sql } from "./stack";

const email = `trial-${randomBytes(5).toString("hex")}@example.com`;
const name = `Trial Echo ${randomBytes(3).toString("hex")}`;
let echo: EchoAgent;
let agentId: string;

test.beforeAll(async () => {
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  ({ agentId, echo } = await listAgentWithCli(payout, ["--name", name, "--price-day", "5"]));
  await sql("UPDATE agents SET trial_messages = 2 WHERE id = $1::uuid", [agentId]);
});

test.afterAll(async () => {
  await echo?.close();
});

test("a signed-in renter starts a free trial on the agent page, chats twice in the playground, then is sent to rent", async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await page.goto(`/?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole("listitem").filter({ hasText: name }).getByTestId("trial-offer")).toHaveText("Try 2 messages free");

  await page.goto(`/agents/${agentId}`);
  const box = page.getByTestId("trial-box");
  await expect(box.getByRole("heading", { name: "Try 2 messages free" })).toBeVisible();
  await expect(box.getByRole("link", { name: "Sign in" })).toBeVisible();

  await signInByEmail(page, email);
  await page.goto(`/agents/${agentId}`);
  await box.getByRole("button", { name: "Start free trial" }).click();
  await expect(box.getByTestId("trial-code")).toContainText("2 free messages left");
  const code = (await box.getByTestId("trial-code").locator("code").first().textContent())!;
  expect(code).toMatch(/^[0-9a-f]{8}$/);

  // Pressing again (a reload) shows the same trial.
  await page.reload();
  await expect(box.getByTestId("trial-code").locator("code").first()).toHaveText(code);

  await box.getByRole("link", { name: "try it in the playground" }).click();
  const conversation = page.getByRole("list", { name: `Conversation with ${name}` });
  const input = page.getByLabel(`Message to ${name}`);
  for (const [i, text] of ["first", "second"].entries()) {
    await input.fill(text);
    await input.press("Enter");
    await expect(conversation.getByRole("listitem")).toHaveCount(i + 1);
    await expect(conversation.getByText("Waiting for the reply")).toHaveCount(0);
  }
  await input.fill("third");
  await input.press("Enter");
  await expect(page.getByText(/The free trial is over \(402\)/)).toBeVisible();
  await expect(page.getByText(`/agents/${agentId}/rent`, { exact: false })).toBeVisible();

  const status = await request.get(`${baseUrl()}/api/v1/status`, { headers: { "X-API-Key": code } });
  expect(status.status()).toBe(200);
  expect(await status.json()).toMatchObject({ rental: { status: "active", channel: "API" }, trial: { messages_left: 0 } });
  await context.close();
});
