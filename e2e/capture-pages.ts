// Screenshots of pages at desktop and phone width, kept under test-results/screenshots (and
// attached to the HTML report). At each width every page is also checked for horizontal overflow
// (on a phone nothing may be wider than the screen), for layout shift while it loads, and with axe
// for what keeps keyboard and screen-reader users out (labels, names, contrast, structure).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, expect, type TestInfo } from "@playwright/test";
import { checkAccessibility } from "./check-accessibility";
import { CLS_GOOD, cumulativeLayoutShift, recordLayoutShifts } from "./cumulative-layout-shift";

export const SCREENSHOT_DIR = "test-results/screenshots";
const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;

type Group = { context: BrowserContext; pages: Record<string, string> };

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
        // Against the layout viewport: window.innerWidth will not do, as a phone browser zooms out
        // to fit a page wider than the screen and innerWidth grows with it.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect.soft(overflow, `${name} at ${width} width scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
        await checkAccessibility(page, testInfo, `${name}-${width}`);
        const file = path.join(SCREENSHOT_DIR, `${name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(`${name}-${width}`, { path: file, contentType: "image/png" });
      }
      await context.close();
    }
  }
}
