"use client";
// Scalar's API reference of the renter API, rendered in the browser from the OpenAPI document the
// service serves. Everything comes from this site: the library is bundled from npm, its default
// web fonts (a font CDN), telemetry, AI agent, MCP panel and request proxy are all switched off,
// so a test request goes from the browser straight to the API (which answers any origin).
import { type AnyApiReferenceConfiguration, ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

// The site's system fonts instead of the web fonts switched off below, and its colours: the
// default theme's greys and method colours are too light for WCAG AA contrast on white.
const THEME = `.light-mode {
  --scalar-font: var(--font-sans);
  --scalar-font-code: var(--font-mono);
  --scalar-color-1: #18181b;
  --scalar-color-2: #52525b;
  --scalar-color-3: #52525b;
  --scalar-color-accent: #1d4ed8;
  --scalar-color-green: #15803d;
  --scalar-color-red: #b91c1c;
  --scalar-color-yellow: #854d0e;
  --scalar-color-blue: #1d4ed8;
  --scalar-color-orange: #c2410c;
  --scalar-color-purple: #6d28d9;
  --scalar-color-query: #0f766e;
}`;

const CONFIGURATION: AnyApiReferenceConfiguration = {
  url: "/api/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: "",
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideDarkModeToggle: true,
  forceDarkModeState: "light",
  documentDownloadType: "json",
  customCss: THEME,
};

export default function ScalarReference() {
  return <ApiReferenceReact configuration={CONFIGURATION} />;
}
