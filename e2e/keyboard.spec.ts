// The marketplace with a keyboard alone, from the top of the page: the skip link comes first and
// takes the focus to the content, the search and the filters are reached and used with Tab, the
// arrow keys and Enter, and wherever the focus is, a ring shows it. Needs no data.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { baseUrl } from "./stack";

/** Presses Tab and expects `target` to take the focus and draw a focus ring (an outline or a box
 * shadow: the browser's own ring may be switched off by the site's styles). */
async function tabTo(page: Page, target: Locator): Promise<void> {
  await page.keyboard.press("Tab");
  await expect(target).toBeFocused();
  await expect(target).toBeInViewport();
  const ring = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 && style.outlineColor !== "rgba(0, 0, 0, 0)";
    return outline
      ? `outline ${style.outlineWidth} ${style.outlineStyle}`
      : style.boxShadow === "none"
        ? ""
        : `box-shadow ${style.boxShadow}`;
  });
  expect(ring, `${target} shows that it has the focus`).not.toBe("");
}

/** Waits for the page to have streamed in: its loading skeleton (a main marked aria-busy) is
 * replaced a moment after the load event, and the focus is lost if it was inside. */
async function streamedIn(page: Page): Promise<void> {
  await expect(page.getByRole("main")).not.toHaveAttribute("aria-busy", "true");
}

test("the marketplace works from the keyboard: skip link, search and filters, focus always visible", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const main = page.getByRole("main");
  const skipLink = page.getByRole("link", { name: "Skip to content" });
  const search = page.getByRole("searchbox", { name: "Search agents" });

  await page.goto("/");
  await streamedIn(page);
  await tabTo(page, skipLink);
  await page.keyboard.press("Enter");
  await expect(main).toBeFocused();
  await tabTo(page, search);
  await page.keyboard.type("scout");
  await page.keyboard.press("Enter");
  // A plain GET form: the results are a new page.
  await page.waitForURL(/[?&]q=scout(&|$)/);
  await streamedIn(page);

  // The whole filter form in tab order, on the results page; a channel is chosen with the arrow keys.
  await tabTo(page, skipLink);
  await page.keyboard.press("Enter");
  await expect(main).toBeFocused();
  await tabTo(page, search);
  await expect(search).toHaveValue("scout");
  await tabTo(page, page.getByRole("button", { name: "Search", exact: true }));
  for (const label of ["Category", "Skill", "Channel"]) await tabTo(page, page.getByLabel(label, { exact: true }));
  await page.keyboard.press("ArrowDown");
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue("Telegram");
  for (const label of ["Duration", "Min price (USDC)", "Max price (USDC)", "Sold per message", "Max price per message (USDC)", "Sort by"])
    await tabTo(page, page.getByLabel(label, { exact: true }));
  await tabTo(page, page.getByRole("link", { name: "Clear filters" }));
  await tabTo(page, page.getByRole("button", { name: "Apply filters" }));
  await page.keyboard.press("Enter");
  await page.waitForURL(/[?&]channel=Telegram(&|$)/);
  await expect(page).toHaveURL(/[?&]q=scout(&|$)/);
  await context.close();
});
