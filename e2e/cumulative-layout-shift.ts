// Layout shift while a page loads: every page of a context records the Layout Instability API's
// entries from its first script on (shifts right after a click or key press do not count, as in
// Google's CLS), and cumulativeLayoutShift adds them up once the page has settled. The sum over the
// whole load is never below Google's CLS (the sum over the worst burst of shifts, at most five
// seconds long), so holding it under CLS_GOOD holds CLS there too.
import type { BrowserContext, Page } from "@playwright/test";

/** Google's threshold for a "good" cumulative layout shift. */
export const CLS_GOOD = 0.1;

/** The entry type the DOM library does not declare (a Chromium-only API). */
type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean };
/** Where the page keeps the running sum (a property of the test's own, on window). */
type Recording = Window & { layoutShiftSum?: number };

export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const recording = window as Recording;
    recording.layoutShiftSum = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as LayoutShift[]) if (!entry.hadRecentInput) recording.layoutShiftSum! += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shift of the page since it started loading. Call it after `networkidle`: it lets two
 * frames render and the observer's last callback run before it reads the sum. */
export async function cumulativeLayoutShift(page: Page): Promise<number> {
  return page.evaluate(async () => {
    for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return (window as Recording).layoutShiftSum ?? 0;
  });
}
