// Runs axe (WCAG 2.0 and 2.1, levels A and AA) on the page as it is and attaches every violation to
// the report as JSON. Serious and critical violations fail the test (softly, so one run lists every
// page's): axe rates those as stopping or seriously hindering someone. Moderate and minor ones
// (under these tags only a few rules: a deprecated ARIA role, a field with two labels, zoom limited
// by the viewport tag, autoplaying audio, a server-side image map) are printed and attached for a
// person to judge but do not fail the run: the bar the product sets is axe's "serious".
import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";

const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const FAILING = new Set(["serious", "critical"]);
const TARGETS_SHOWN = 3;

type Violation = { rule: string; impact: string | null | undefined; help: string; helpUrl: string; targets: string[] };

/**
 * `thirdParty`: the root of a library's widget on the page (the API reference's, /docs/api). Its
 * violations are the library's to fix (docs/decisions.md): they are printed and attached, but do
 * not fail the run; the rest of the page is held to the same bar as every page.
 */
export async function checkAccessibility(page: Page, testInfo: TestInfo, label: string, thirdParty?: string): Promise<void> {
  const axe = () => new AxeBuilder({ page }).withTags(WCAG_AA);
  const widget = thirdParty !== undefined && (await page.locator(thirdParty).count()) > 0 ? thirdParty : null;
  const own = summarise((await (widget ? axe().exclude(widget) : axe()).analyze()).violations);
  const library = widget ? summarise((await axe().include(widget).analyze()).violations) : [];
  await testInfo.attach(`axe-${label}`, {
    body: JSON.stringify(
      { url: page.url(), violations: own, ...(widget ? { thirdParty: { root: widget, violations: library } } : {}) },
      null,
      2,
    ),
    contentType: "application/json",
  });

  const line = (v: Violation) =>
    `${v.rule} (${v.impact}): ${v.help} — ${v.targets.length} element(s): ${v.targets.slice(0, TARGETS_SHOWN).join(" | ")}`;
  const advisory = own.filter((v) => !FAILING.has(v.impact ?? ""));
  if (advisory.length > 0) console.log(`axe on ${label}, not failing:\n  ${advisory.map(line).join("\n  ")}`);
  if (library.length > 0)
    console.log(`axe on ${label}, inside ${widget} (a library's widget), not failing:\n  ${library.map(line).join("\n  ")}`);
  const failing = own.filter((v) => FAILING.has(v.impact ?? "")).map(line);
  expect.soft(failing, `${label}: serious or critical accessibility violations (axe)`).toEqual([]);
}

function summarise(violations: Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"]): Violation[] {
  return violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    targets: v.nodes.map((node) => node.target.join(" ")),
  }));
}
