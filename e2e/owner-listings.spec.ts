// An owner manages a listing from the dashboard: a signed-out link to it comes back after the
// wallet sign-in, the category's skills suggested (never added unasked) and the limit of 8,
// messages in the page's words, a blank price that disables a duration, a banner that goes when it
// no longer holds, a failed webhook test said in words (never "Connected") with the signing secret
// kept until the fixed URL passes, edits that show on the marketplace, and deletion.
import { expect, test } from "@playwright/test";
import { type EchoAgent, startEchoAgent } from "../scripts/echo-agent";
import { baseUrl } from "./stack";
import { installTestWallet } from "./test-wallet";

let echo: EchoAgent | undefined;

test.afterAll(async () => {
  await echo?.close();
});

test("an owner creates, edits and deletes a listing; skills, prices and channels show on the marketplace", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, `0x${"33".repeat(32)}`);
  // Signed out, a dashboard link leads to the sign-in, and the wallet sign-in comes back to it.
  await page.goto("/dashboard/agents/new");
  await expect(page).toHaveURL(`${baseUrl()}/sign-in?next=${encodeURIComponent("/dashboard/agents/new")}`);
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await page.waitForURL("**/dashboard/agents/new");
  const skills = page.getByRole("textbox", { name: "Skills" });
  const chosen = page.getByRole("list", { name: "Skills on this listing" }).getByRole("listitem");
  await page.getByLabel("Category").selectOption("coding");
  // Suggested, not applied: nothing is added until the owner picks a suggestion.
  await expect(skills).toHaveValue("");
  await expect(chosen).toHaveCount(0);
  for (const tag of ["code-review", "debugging"]) await page.getByRole("button", { name: `${tag} (add this skill)` }).click();
  await expect(skills).toHaveValue("code-review, debugging");
  await expect(chosen).toHaveCount(2);
  await expect(page.getByRole("button", { name: "code-review (add this skill)" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "refactoring (add this skill)" })).toBeVisible();

  await skills.fill("a, b, c, d, e, f, g, h, i");
  await expect(page.getByText("At most 8 skills: remove 1.")).toBeVisible();
  await page.getByLabel("Name").fill("Patch Pilot");
  await page.getByLabel("Description").fill("Reviews pull requests and suggests small, safe patches.");
  await page.getByRole("checkbox", { name: "Telegram" }).check();
  await page.getByRole("button", { name: "Create listing" }).click();
  // The server refuses it too, in the page's words, and keeps what was typed. Its own sentence is
  // awaited: the page's "at most 8" hint was there before the answer, and a skill removed before
  // the answer came was put back by it (a failure in CI).
  await expect(page.getByText("Please correct this field. Skills: at most 8 skills.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Patch Pilot");
  await page.getByRole("button", { name: "Remove skill i" }).click();
  await page.getByRole("button", { name: "Create listing" }).click();
  await expect(page.getByText("set a price for at least one duration: per hour, per day or per month").first()).toBeVisible();
  await expect(page.getByText(/pricePer/)).toHaveCount(0);
  // A negative price is refused for what it is, not as a badly written amount.
  await page.getByLabel("Price per day").fill("-15");
  await page.getByRole("button", { name: "Create listing" }).click();
  await expect(page.getByText("must not be negative").first()).toBeVisible();
  await page.getByLabel("Price per day").fill("15");
  await page.getByRole("button", { name: "Create listing" }).click();
  await page.waitForURL(/\/dashboard\/agents\/[0-9a-f-]{36}\?created=1$/);
  const agentId = page.url().match(/agents\/([0-9a-f-]{36})/)![1];
  await expect(page.getByText("Listing created. It is offline until you connect its webhook")).toBeVisible();

  await page.getByRole("button", { name: "Generate token" }).click();
  echo = await startEchoAgent(await page.getByRole("textbox", { name: "Webhook token" }).inputValue());
  const webhookUrl = page.getByRole("textbox", { name: "Webhook URL" });
  // A first try at a port where nothing listens: saved but not answering, said in words, the
  // raw code only as the developers' detail, and never "Connected".
  await webhookUrl.fill("http://127.0.0.1:1/hooks/agent");
  await page.getByRole("button", { name: "Test connection" }).click();
  const failed = page.getByRole("alert").filter({ hasText: "The webhook is saved, but it failed the test" });
  await expect(failed).toContainText(
    "The connection was refused: nothing is listening at that address and port. Start your agent, or check the host and port in the URL.",
  );
  await expect(failed).not.toContainText("ECONNREFUSED");
  await expect(page.getByRole("definition").filter({ hasText: /^unreachable: ECONNREFUSED$/ })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: /^Offline$/ })).toBeVisible();
  await expect(page.getByText(/A webhook at 127\.0\.0\.1:1 is saved, but it did not answer/)).toBeVisible();
  await expect(page.getByText(/Connected to/)).toHaveCount(0);
  // The signing secret is there to copy, and stays so until a test passes.
  const first = await page.getByText(/^whsec_/).textContent();
  await expect(page.getByText("It is shown again with each Test connection until one passes.")).toBeVisible();

  // The URL fixed: the test passes, and the same secret is still shown, this one last time.
  await webhookUrl.fill(echo.url);
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByRole("definition").filter({ hasText: /^Available$/ })).toBeVisible();
  await expect(page.getByText(/^Connected to/)).toBeVisible();
  await expect(page.getByText(/^whsec_/)).toHaveText(first!);
  await expect(page.getByText(/This is the last time it is shown/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy signing secret" })).toBeVisible();
  // The listing is live now: the "offline" banner is gone, not left beside "Available".
  await expect(page.getByText("Listing created.")).toHaveCount(0);
  // Never shown again after that; a rotation shows a new one.
  await page.reload();
  await expect(page.getByText(/^whsec_/)).toHaveCount(0);
  await page.getByRole("button", { name: "Rotate signing secret" }).click();
  await expect(page.getByText("New signing secret.", { exact: false })).toBeVisible();
  await expect(page.getByText(/^whsec_/)).not.toHaveText(first ?? "");

  // The delivery log: a test message answered as a renter would be, then the connect's check listed.
  await page.getByRole("link", { name: "Delivery log and test message" }).click();
  await page.getByRole("textbox", { name: "Test message" }).fill("Hello from the dashboard");
  await page.getByRole("button", { name: "Send a test message" }).click();
  const raw = page.getByRole("figure", { name: "What a renter would get" });
  await expect(raw).toContainText("HTTP 200");
  await expect(raw).toContainText('"success": true');
  await expect(page.getByRole("cell", { name: "Health check" }).first()).toBeVisible();
  await page.getByRole("link", { name: "Failed" }).click();
  await expect(page.getByRole("link", { name: "Failed" })).toHaveAttribute("aria-current", "page");
  await page.goBack();
  await page.goBack();

  // Only the priced duration can be rented; both channels are offered.
  const visitor = await browser.newPage({ baseURL: baseUrl() });
  await visitor.goto(`/agents/${agentId}`);
  await expect(visitor.getByRole("link", { name: /^Rent for/ })).toHaveText(["Rent for 1 day"]);
  await expect(visitor.getByText("Not offered per hour or per month.")).toBeVisible();
  await expect(visitor.getByText("Telegram, API").or(visitor.getByText("API, Telegram"))).toBeVisible();
  await expect(visitor.getByRole("list", { name: "Skills" }).getByRole("listitem")).toHaveCount(8);

  // Edit: another name, hourly instead of daily.
  await page.reload();
  const details = page.getByRole("region", { name: "Details" });
  await details.getByLabel("Name").fill("Patch Pilot Pro");
  await details.getByLabel("Price per hour").fill("3");
  await details.getByLabel("Price per day").fill("");
  await details.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Patch Pilot Pro");
  await visitor.goto(`/agents/${agentId}`);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Patch Pilot Pro");
  await expect(visitor.getByRole("link", { name: /^Rent for/ })).toHaveText(["Rent for 1 hour"]);

  // Delete (never rented): asks for a tick, then the listing is gone from the marketplace.
  await page.getByRole("checkbox", { name: "Yes, delete this listing" }).check();
  await page.getByRole("button", { name: "Delete listing Patch Pilot Pro" }).click();
  await page.waitForURL("**/dashboard/agents?deleted=1");
  await expect(page.getByRole("link", { name: "Patch Pilot Pro" })).toHaveCount(0);
  const gone = await visitor.goto(`/agents/${agentId}`);
  expect(gone?.status()).toBe(404);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("This agent does not exist");
  expect((await visitor.goto(`/agents/${agentId}/rent`))?.status()).toBe(404);
  await context.close();
  await visitor.close();
});
