// Screenshots of pages at desktop and phone width, kept under test-results/screenshots (and
// attached to the HTML report). At each width every page is also checked for horizontal overflow
// (on a phone nothing may be wider than the screen), for layout shift while it loads, and with axe
// for what keeps keyboard and screen-reader users out (labels, names, contrast, structure).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, expect, type Page, type TestInfo } from "@playwright/test";
import { checkAccessibility } from "./check-accessibility";
import { CLS_GOOD, cumulativeLayoutShift, recordLayoutShifts } from "./cumulative-layout-shift";

export const SCREENSHOT_DIR = "test-results/screenshots";
const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;

// thirdParty: the root of a library's widget on these pages, whose axe findings do not fail the run
// (check-accessibility.ts).
type Group = { context: BrowserContext; pages: Record<string, string>; thirdParty?: string };

export async function capturePages(browser: Browser, testInfo: TestInfo, groups: Group[]): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const group of groups) {
    // Same cookies (so the same account), other screen sizes.
    const storageState = await group.context.storageState();
    for (const [width, options] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ ...options, storageState, baseURL: process.env.E2E_BASE_URL });
      await recordLayoutShifts(context);
      const page = await context.newPage();
      for (const [name, url] of Object.entries(group.pages)) {
        const response = await page.goto(url, { waitUntil: "networkidle" });
        expect(response?.status(), `${url} answers`).toBe(200);
        expect(page.url(), `${url} does not redirect`).not.toContain("/sign-in?");
        // Read first: the full-page screenshot below resizes the viewport, which moves things.
        const layoutShift = await cumulativeLayoutShift(page);
        expect.soft(layoutShift, `${name} at ${width} width: layout shift while loading`).toBeLessThan(CLS_GOOD);
        const wide = await tooWide(page, options.viewport.width);
        expect.soft(wide, `${name} at ${width} width: elements wider than the screen`).toEqual([]);
        await checkAccessibility(page, testInfo, `${name}-${width}`, group.thirdParty);
        const file = path.join(SCREENSHOT_DIR, `${name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(`${name}-${width}`, { path: file, contentType: "image/png" });
      }
      await context.close();
    }
  }
}

// What makes the page wider than the screen: nothing when it fits, else the innermost elements
// reaching past the right edge. (A phone browser widens its layout viewport to fit the page, so
// the page's width is compared with the screen's, not with window.innerWidth.)
export function tooWide(page: Page, screenWidth: number): Promise<string[]> {
  return page.evaluate((limit) => {
    if (document.documentElement.scrollWidth <= limit) return [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.classList.length ? `.${[...el.classList].join(".")}` : ""}`;
    const offenders = [...document.body.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > limit + 1);
    const innermost = offenders.filter((el) => !offenders.some((other) => other !== el && el.contains(other)));
    const found = innermost.slice(0, 5).map((el) => `${name(el)} (right edge ${Math.round(el.getBoundingClientRect().right)}px)`);
    return [`the page is ${document.documentElement.scrollWidth}px wide`, ...found];
  }, screenWidth);
}
