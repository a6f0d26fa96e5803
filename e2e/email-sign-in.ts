// Signs `email` in as a person does: asks for a link on /sign-in, opens it from the dev outbox (the
// link in the e-mail is a link: one click opens the confirm page) and confirms; lands on /dashboard.
import { expect, type Page } from "@playwright/test";

export async function signInByEmail(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
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
  await page.waitForURL("**/dashboard");
}
