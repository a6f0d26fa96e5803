"use client";
// Scalar's API reference of the renter API, rendered in the browser from the OpenAPI document the
// service serves. Everything comes from this site: the library is bundled from npm, its default
// web fonts (a font CDN), telemetry, AI agent, MCP panel and request proxy are all switched off,
// so "Send" calls the API straight from the browser (it answers any origin).
import { type AnyApiReferenceConfiguration, ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

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
  // The site's own system fonts instead of the web fonts switched off above.
  customCss: ".scalar-app { --scalar-font: var(--font-sans); --scalar-font-code: var(--font-mono); }",
};

export default function ScalarReference() {
  return <ApiReferenceReact configuration={CONFIGURATION} />;
}
