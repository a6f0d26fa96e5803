import { expect, test } from "@playwright/test";

test("marketplace renders", async ({ page }) => {
  await page.goto(process.env.E2E_BASE_URL!);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.screenshot({ path: "test-results/smoke.png" });
});
