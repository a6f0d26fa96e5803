// The security headers of every response (docs/deployment.md#security-headers). Pure functions of
// their inputs, no env and no "server-only": next.config.ts (build time) and proxy.ts (per
// request) both import this file.

export type Header = { key: string; value: string };

// Coinbase Wallet SDK: its wallet opens as a popup (window.open, postMessage: not CSP-governed);
// the WalletLink relay it falls back to is a WebSocket.
const COINBASE_WALLET_CONNECT = ["https://www.walletlink.org", "wss://www.walletlink.org", "https://rpc.wallet.coinbase.com"];

// WalletConnect (Reown) as @walletconnect/ethereum-provider and its QR modal use it: the relay
// (WebSocket), its RPC and telemetry, the wallet list API, the Verify API (a hidden iframe) and
// the modal's fonts and wallet images. Reown's own CSP guidance lists the same hosts.
const WALLETCONNECT = {
  connect: [
    "wss://relay.walletconnect.org",
    "wss://relay.walletconnect.com",
    "https://relay.walletconnect.org",
    "https://relay.walletconnect.com",
    "https://rpc.walletconnect.org",
    "https://rpc.walletconnect.com",
    "https://pulse.walletconnect.org",
    "https://pulse.walletconnect.com",
    "https://verify.walletconnect.org",
    "https://verify.walletconnect.com",
    "https://api.web3modal.org",
    "https://api.web3modal.com",
  ],
  frame: [
    "https://verify.walletconnect.org",
    "https://verify.walletconnect.com",
    "https://secure.walletconnect.org",
    "https://secure.walletconnect.com",
  ],
  img: ["https://api.web3modal.org", "https://api.web3modal.com", "https://*.walletconnect.org", "https://*.walletconnect.com"],
  font: ["https://fonts.reown.com"],
};

export type PagePolicyInput = {
  /** Fresh per response: Next.js puts it on every script it emits (it reads it from this header). */
  nonce: string;
  /** `next dev`: React and the dev overlay need eval. */
  dev: boolean;
  /** The RPC URL the browser's wallet code reads the chain through (CHAIN_PUBLIC_RPC_URL…), if any. */
  rpcUrl: string | null;
  /** WALLETCONNECT_PROJECT_ID is set: the checkout offers WalletConnect. */
  walletConnect: boolean;
  /** The site is served over https (APP_URL): any http subresource is upgraded. */
  https: boolean;
};

/**
 * The Content-Security-Policy of every page. Scripts run only with this response's nonce (Next's
 * bootstrap, chunks and inline flight data carry it) or when loaded by such a script
 * ('strict-dynamic': Next's chunk loader, next/dynamic, the wallet SDKs' lazy parts): an injected
 * <script> or inline handler does not run. Styles allow inline: React style attributes and the
 * wallet SDKs' injected <style> elements cannot carry a nonce. Connections go to this origin, the
 * public RPC and the wallet services only; no site may frame a page (clickjacking).
 */
export function pageContentSecurityPolicy({ nonce, dev, rpcUrl, walletConnect, https }: PagePolicyInput): string {
  const wc = walletConnect ? WALLETCONNECT : { connect: [], frame: [], img: [], font: [] };
  const rpcOrigin = rpcUrl ? originOf(rpcUrl) : null;
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:", ...wc.img],
    ["font-src", "'self'", ...wc.font],
    ["connect-src", "'self'", ...(rpcOrigin ? [rpcOrigin] : []), ...COINBASE_WALLET_CONNECT, ...wc.connect],
    ["frame-src", "'self'", ...wc.frame],
    ["worker-src", "'self'", "blob:"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
    ...(https ? [["upgrade-insecure-requests"] as [string]] : []),
  ];
  return directives.map((parts) => [...new Set(parts)].join(" ")).join("; ");
}

/** The CSP of API responses (JSON): nothing may load or run, nothing may frame them. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Path patterns (next.config.ts `source`) of the API: /api, the /v1 and /public rewrites, and the
 * A2A endpoints and agent cards (/a2a, /a2a/{agentId}/…, /.well-known/agent-card.json).
 */
export const API_SOURCES = ["/api/:path*", "/v1/:path*", "/public/:path*", "/a2a/:path*", "/.well-known/:path*"];

/**
 * The headers next.config.ts sets on every response. HSTS only in a production build: `next dev`
 * and a local `npm start` over http must not pin localhost to https (browsers ignore it over
 * http, but a dev proxy with TLS on localhost would not).
 */
export function staticSecurityHeaders({ production }: { production: boolean }): Header[] {
  return [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    // frame-ancestors 'none' for browsers that predate CSP 2.
    { key: "X-Frame-Options", value: "DENY" },
    ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }] : []),
  ];
}

/** A fresh 128-bit nonce, base64 (the characters Next.js accepts in 'nonce-…'). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

// CSP host sources name an origin; a path would have to match exactly.
function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}
