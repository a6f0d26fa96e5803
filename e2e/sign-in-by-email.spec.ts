// An owner without a wallet signs in by e-mail: the link arrives in the dev outbox (what Resend
// would deliver), opens a page whose button signs in (a scanner opening the link spends nothing),
// works once, and the session it opens ends on sign-out. A dashboard link opened signed out is
// where the e-mailed link lands. Past the e-mail limit the form says so.
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { checkAccessibility } from "./check-accessibility";
import { baseUrl, listAgentWithCli, operatorCli, sql } from "./stack";

test("sign in by e-mail through the dev outbox: the link survives a mail scanner and works only once", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const email = `owner-${Date.now()}@example.com`;

  await page.goto("/sign-in");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: /e-mail|link/i }).click();
  await expect(page.getByText(/check your (inbox|e-mail)/i)).toBeVisible();

  await page.goto("/dev/outbox");
  const message = page.getByRole("article").filter({ hasText: `to ${email}` });
  await expect(message).toContainText("Your sign-in link for Agent Rental Service");
  const link = (await message.locator("pre").textContent())!.match(/https?:\/\/\S+/)![0];

  // A mail scanner opens the link first: that spends nothing.
  expect((await page.request.get(link)).status()).toBe(200);
  await page.goto(link);
  await checkAccessibility(page, testInfo, "sign-in-confirm");
  await page.getByRole("button", { name: `Sign in as ${email}` }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toContainText(email);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" })).toBeVisible();

  // A used link opens nothing, even in another browser.
  const other = await browser.newContext({ baseURL: baseUrl() });
  const otherPage = await other.newPage();
  await otherPage.goto(link);
  await expect(otherPage).toHaveURL(/\/sign-in/);
  await expect(otherPage.getByRole("alert").filter({ hasText: "already been used" })).toBeVisible();
  await other.close();

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/dashboard"));
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" })).toBeVisible();
  await context.close();
});

test("a dashboard link opened signed out (as from an e-mail) is where the e-mail sign-in lands", async ({ browser }) => {
  const email = `deep-link-${Date.now()}@example.com`;
  const { agentId, echo } = await listAgentWithCli(privateKeyToAccount(generatePrivateKey()).address, [
    "--name",
    "Deep Link Agent",
    "--price-day",
    "5",
  ]);
  const context = await browser.newContext({ baseURL: baseUrl() });
  try {
    // A rental of this address's account, as its checkout would have made it.
    const rental = await operatorCli(["rental:create", "--agent", agentId, "--duration", "day"], { NODE_ENV: "test" });
    await sql("INSERT INTO accounts (id, email) VALUES (gen_random_uuid(), $1)", [email]);
    await sql("UPDATE rentals SET renter_id = (SELECT id FROM accounts WHERE email = $1) WHERE id = $2::uuid", [email, rental.id]);
    const deepLink = `/dashboard/rentals/${rental.id}?from=email`;

    const page = await context.newPage();
    await page.goto(deepLink);
    await expect(page).toHaveURL(`${baseUrl()}/sign-in?next=${encodeURIComponent(deepLink)}`);
    await expect(page.getByText("Once you are signed in, you go on to the page you opened.")).toBeVisible();
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await expect(page.getByText(/check your inbox/i)).toBeVisible();

    await page.goto("/dev/outbox");
    await page
      .getByRole("article")
      .filter({ hasText: `to ${email}` })
      .getByRole("link", { name: /\/sign-in\/email\?token=/ })
      .click();
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === deepLink);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Deep Link Agent");
  } finally {
    await context.close();
    await echo.close();
  }
});

test("past 5 links in 15 minutes the form says the e-mail limit is reached and when to ask again", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const email = `flooded-${Date.now()}@example.com`;
  // Five links asked for this address a minute ago (the limit counts the links on record).
  await sql(
    `INSERT INTO magic_links (id, token_hash, email, expires_at, created_at)
     SELECT gen_random_uuid(), md5(random()::text || n), $1, now() + interval '14 minutes', now() - interval '1 minute'
       FROM generate_series(1, 5) AS n`,
    [email],
  );
  await page.goto("/sign-in");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "sign-in links" })).toHaveText(
    "5 sign-in links were sent to this address in the last 15 minutes, so no new one was sent. Use the latest one, or ask again in 14 minutes.",
  );
  await expect(page.getByText(/check your inbox/i)).toHaveCount(0);
  await context.close();
});
