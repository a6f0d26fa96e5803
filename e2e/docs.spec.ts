// The in-app docs: the header's Docs leads there; the renters' page has runnable examples in curl,
// Python and JavaScript for this site; the webhook contract's example copies exactly; the API
// reference renders the operations of /api/v1/openapi.json from this site alone (no CDN), follows a
// dark system like the rest of the site and asks for the rental code where Scalar shows a key-like
// example, and its library stays out of every other page; no docs page is wider than a 360 px phone.
import { expect, type Page, test } from "@playwright/test";
import { capturePages, tooWide } from "./capture-pages";
import { checkAccessibility } from "./check-accessibility";
import { baseUrl } from "./stack";

const DOCS_PAGES = {
  docs: "/docs",
  "docs-renters": "/docs/renters",
  "docs-owners": "/docs/owners",
  "docs-webhooks": "/docs/webhooks",
  "docs-a2a": "/docs/a2a",
  "docs-api": "/docs/api",
};

// Every script and stylesheet the page loaded, with its text.
function recordAssets(page: Page): Array<Promise<string>> {
  const assets: Array<Promise<string>> = [];
  page.on("response", (response) => {
    if (["script", "stylesheet"].includes(response.request().resourceType())) assets.push(response.text().catch(() => ""));
  });
  return assets;
}

test("Docs in the header leads to the guides; renters get examples for this site, owners a webhook request to copy", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl(), permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Docs" }).click();
  await page.waitForURL("**/docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Documentation");

  await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "For renters" }).click();
  await page.waitForURL("**/docs/renters");
  for (const language of ["curl", "Python", "JavaScript"]) {
    const copy = page.getByRole("button", { name: `Copy the chat example in ${language}` });
    const example = page.getByRole("figure").filter({ has: copy }).locator("pre");
    await expect(example).toContainText(`${baseUrl()}/api/v1/chat`);
    await expect(example).toContainText("X-API-Key");
    await expect(page.getByRole("button", { name: `Copy the status example in ${language}` })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Chat apps: Telegram, Discord, Slack, WhatsApp, Teams and Google Chat" })).toBeVisible();

  await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "For owners" }).click();
  await page.waitForURL("**/docs/owners");
  await expect(page.getByRole("heading", { name: "Create a listing" })).toBeVisible();
  await page.getByRole("link", { name: "The webhook contract" }).click();
  await page.waitForURL("**/docs/webhooks");
  const copy = page.getByRole("button", { name: "Copy the example request", exact: true });
  const shown = await page.getByRole("figure").filter({ has: copy }).locator("pre").textContent();
  await copy.click();
  await expect(copy).toHaveText("Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(shown);
  for (const line of [
    "Authorization: Bearer <WEBHOOK_TOKEN>",
    "Content-Type: application/json",
    "X-Agent-Name: Echo Agent",
    "X-Rental-Ref: rr_",
  ]) {
    expect(copied).toContain(line);
  }
  expect(JSON.parse(copied.split("\n\n")[1])).toMatchObject({ type: "message", message: "Hello, agent!", channel: "API" });
  await expect(page.getByRole("button", { name: "Copy the Node.js webhook", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy the Python webhook", exact: true })).toBeVisible();
  await context.close();
});

test("the API reference renders the OpenAPI document's operations from this site alone; no other page loads it", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const origins = new Set<string>();
  page.on("request", (request) => {
    if (!request.url().startsWith("data:") && !request.url().startsWith("blob:")) origins.add(new URL(request.url()).origin);
  });
  const ownAssets = recordAssets(page);
  const openapi = page.waitForResponse((response) => response.url().endsWith("/api/v1/openapi.json"));
  await page.goto("/docs/api");
  expect((await openapi).status()).toBe(200);
  await expect(page.getByText("Send a message to the rented agent and get its reply").first()).toBeVisible();
  await expect(page.getByText("Read the rental's current state (does not call the agent)").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect([...origins]).toEqual([new URL(baseUrl()).origin]);
  // The marker the other pages are searched for below: the reference's own code and styles hold it.
  expect((await Promise.all(ownAssets)).some((text) => text.includes("scalar-app"))).toBe(true);

  for (const path of Object.values(DOCS_PAGES).filter((p) => p !== "/docs/api")) {
    const other = await context.newPage();
    const assets = recordAssets(other);
    await other.goto(path, { waitUntil: "networkidle" });
    const texts = await Promise.all(assets);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.filter((text) => text.includes("scalar-app")).length, `${path} loads none of the reference's code or styles`).toBe(0);
    await other.close();
  }
  await context.close();
});

test("the API reference follows the system's theme, and its key field asks for the rental code, not a key-like example", async ({
  browser,
}, testInfo) => {
  // A colour's relative luminance (WCAG): near 1 for light text, near 0 for dark.
  const luminance = (rgb: string) => {
    const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ baseURL: baseUrl(), colorScheme });
    const page = await context.newPage();
    await page.goto("/docs/api");
    const title = page.getByText("Send a message to the rented agent and get its reply").first();
    await expect(title).toBeVisible();
    await expect(page.locator("body")).toHaveClass(colorScheme === "dark" ? /\bdark-mode\b/ : /\blight-mode\b/);
    const text = luminance(await title.evaluate((element) => getComputedStyle(element).color));
    if (colorScheme === "dark") expect(text, "light text on the dark theme").toBeGreaterThan(0.3);
    else expect(text, "dark text on the light theme").toBeLessThan(0.15);

    // Scalar's own placeholder for an API key's value is a Base64 string that looks like a real key.
    const field = page.locator('[placeholder="Your rental code"], [data-placeholder="Your rental code"]');
    await expect(field.first()).toBeAttached();
    await expect(page.locator('[placeholder^="QUxM"], [data-placeholder^="QUxM"]')).toHaveCount(0);
    if (colorScheme === "dark") await checkAccessibility(page, testInfo, "docs-api-dark", ".scalar-app");
    await context.close();
  }
});

test("no docs page is wider than a 360 px phone", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  for (const path of Object.values(DOCS_PAGES)) {
    await page.goto(path, { waitUntil: "networkidle" });
    if (path === "/docs/api") await expect(page.getByText("Send a message to the rented agent and get its reply").first()).toBeAttached();
    expect.soft(await tooWide(page, 360), `${path} at 360 px`).toEqual([]);
  }
  await context.close();
});

test("the docs pages at desktop and phone width: screenshots, no layout shift, no serious axe violation outside the reference's own widget", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  await capturePages(browser, testInfo, [{ context, pages: DOCS_PAGES, thirdParty: ".scalar-app" }]);
});
