import type { NextConfig } from "next";
import { API_CONTENT_SECURITY_POLICY, API_SOURCES, staticSecurityHeaders } from "./lib/http/security-headers";

const config: NextConfig = {
  poweredByHeader: false,
  // {base_url} may be {app_url}/api or an API host of its own: serve both path shapes.
  async rewrites() {
    return [
      { source: "/v1/:path*", destination: "/api/v1/:path*" },
      { source: "/public/:path*", destination: "/api/public/:path*" },
    ];
  },
  // Evaluated when the app is built (`next build`: production) or `next dev` starts. Pages get
  // their Content-Security-Policy from proxy.ts: it needs a nonce per response and the runtime
  // settings (public RPC, WalletConnect), which a build-time header cannot have.
  async headers() {
    return [
      { source: "/:path*", headers: staticSecurityHeaders({ production: process.env.NODE_ENV === "production" }) },
      ...API_SOURCES.map((source) => ({
        source,
        headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }],
      })),
    ];
  },
};

export default config;
