"use client";
// Scalar's API reference of the renter API, rendered in the browser from the OpenAPI document the
// service serves. Everything comes from this site: the library is bundled from npm, its default
// web fonts (a font CDN), telemetry, AI agent, MCP panel and request proxy are all switched off,
// so a test request goes from the browser straight to the API (which answers any origin).
import { type AnyApiReferenceConfiguration, ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useEffect } from "react";

// The site's system fonts instead of the web fonts switched off below, and its colours in both
// themes: the default theme's greys and method colours miss WCAG AA contrast (on white in the
// light theme; the dark theme's third grey on black too). The dark values are the site's own dark
// tokens (app/globals.css), each at AA or better on its background.
const THEME = `.light-mode, .dark-mode {
  --scalar-font: var(--font-sans);
  --scalar-font-code: var(--font-mono);
}
.light-mode {
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
}
.dark-mode {
  --scalar-background-1: #0c0c0f;
  --scalar-background-2: #18181b;
  --scalar-background-3: #27272a;
  --scalar-border-color: #3f3f46;
  --scalar-color-1: #f4f4f5;
  --scalar-color-2: #a1a1aa;
  --scalar-color-3: #a1a1aa;
  --scalar-color-accent: #8ab4f8;
  --scalar-color-green: #4ade80;
  --scalar-color-red: #f87171;
  --scalar-color-yellow: #facc15;
  --scalar-color-blue: #8ab4f8;
  --scalar-color-orange: #fb923c;
  --scalar-color-purple: #c4b5fd;
  --scalar-color-query: #5eead4;
}`;

// Without darkMode or forceDarkModeState Scalar follows the system's prefers-color-scheme, as
// the rest of the site does, and switches with it; its own toggle is hidden (the site has none).
const CONFIGURATION: AnyApiReferenceConfiguration = {
  url: "/api/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: "",
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideDarkModeToggle: true,
  documentDownloadType: "json",
  customCss: THEME,
};

// Scalar writes this placeholder into the value field of every API-key scheme (RequestAuthTab in
// @scalar/api-client; there is no option for it). It is Base64 and looks like a real key, so the
// field says what goes there instead.
const SCALAR_KEY_PLACEHOLDER = "QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT";
const RENTAL_CODE_PLACEHOLDER = "Your rental code";

function replacePlaceholders() {
  for (const attribute of ["placeholder", "data-placeholder"]) {
    for (const field of document.querySelectorAll(`[${attribute}="${SCALAR_KEY_PLACEHOLDER}"]`))
      field.setAttribute(attribute, RENTAL_CODE_PLACEHOLDER);
  }
}

export default function ScalarReference() {
  useEffect(() => {
    // The fields come and go as the reader opens operations, some in the request window Scalar
    // mounts at the end of the body: each is fixed as it appears.
    replacePlaceholders();
    const observer = new MutationObserver(replacePlaceholders);
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["placeholder", "data-placeholder"],
    });
    return () => observer.disconnect();
  }, []);
  return <ApiReferenceReact configuration={CONFIGURATION} />;
}
