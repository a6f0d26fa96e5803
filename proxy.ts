// Next.js Proxy (runs before every page request): a server action posted from another site is
// refused with 403 (lib/http/refuse-cross-origin-action.ts), before Next.js would answer it 500;
// every other request gets the page's Content-Security-Policy with a fresh nonce. Next.js reads the
// nonce from the request's CSP header and puts it on every script it emits, so the policy needs no
// 'unsafe-inline' for scripts. The other security headers, and the CSP of API responses, are
// static: next.config.ts. Policy and reasons: lib/http/security-headers.ts.
import { type NextRequest, NextResponse } from "next/server";
import { publicRpcUrl } from "@/lib/chain/public-rpc-url";
import { env } from "@/lib/env";
import { refuseCrossOriginAction } from "@/lib/http/refuse-cross-origin-action";
import { REQUEST_PATH_HEADER, requestPath } from "@/lib/http/request-path";
import { newNonce, pageContentSecurityPolicy } from "@/lib/http/security-headers";

// What the policy depends on besides the nonce: settings read once per process.
const settings = {
  dev: env.NODE_ENV === "development",
  rpcUrl: env.CHAIN_ID
    ? publicRpcUrl({ chainId: env.CHAIN_ID, serverRpcUrl: env.CHAIN_RPC_URL, publicRpcUrl: env.CHAIN_PUBLIC_RPC_URL })
    : null,
  walletConnect: Boolean(env.WALLETCONNECT_PROJECT_ID),
  https: env.APP_URL?.startsWith("https:") ?? false,
};

export function proxy(request: NextRequest): Response {
  const refused = refuseCrossOriginAction(request);
  if (refused) return refused;
  const policy = pageContentSecurityPolicy({ ...settings, nonce: newNonce() });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  // Server components get no URL: this one tells requireSignedInAccount where to come back to.
  headers.set(REQUEST_PATH_HEADER, requestPath(request.nextUrl));
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: not the API (/api and its /v1, /public rewrites; next.config.ts), the A2A
      // endpoints and cards (/a2a, /.well-known), Next's static files or the icon. Prefetches carry
      // no HTML, so they need no nonce.
      source: "/((?!api/|api$|v1/|v1$|public/|public$|a2a/|a2a$|\\.well-known/|_next/static/|_next/image|icon\\.svg$|favicon\\.ico$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
