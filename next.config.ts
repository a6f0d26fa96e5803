import type { NextConfig } from "next";
import { API_CONTENT_SECURITY_POLICY, API_SOURCES, staticSecurityHeaders } from "./lib/http/security-headers";

const config: NextConfig = {
  poweredByHeader: false,
  typescript: {
    // `npm test` builds for the browser tests after `npm run lint` has type-checked the whole
    // project (CI runs the two in that order): scripts/test-suites.sh sets this so that the build
    // does not check it again (about 20 s of a core). Every other build checks the types.
    ignoreBuildErrors: process.env.NEXT_BUILD_TYPES_CHECKED === "1",
  },
  // Loaded from node_modules at run time, not bundled: discord.js (under @chat-adapter/discord)
  // imports optional native packages (zlib-sync, bufferutil) that a bundler cannot resolve.
  serverExternalPackages: ["discord.js"],
  experimental: {
    // `next dev` rebuilds from scratch on every start. Its persisted cache (.next/dev/cache), once
    // `npm run dev` had restarted, sent the browser's shared chunk list as "restart" updates; each
    // one moved the dev server's HMR version, so every open page was told "HMR hash mismatch",
    // reloaded, subscribed again and set off the next one: pages reloaded in a loop until .next was
    // deleted (issue 23; test/embedded-default.test.ts restarts the server ten times).
    turbopackFileSystemCacheForDev: false,
    // A build's persisted cache (.next/cache) makes the next build of the same tree about half as
    // long (24 s against 51 s on the 2-core CI machine) and costs the build that writes it about
    // 19 s. A machine that builds each checkout once (CI's fresh clone: .ci/run sets
    // NEXT_BUILD_CACHE=0) leaves it off; developers and Vercel, which keeps .next/cache between
    // deployments, keep it.
    turbopackFileSystemCacheForBuild: process.env.NEXT_BUILD_CACHE !== "0",
  },
  logging: {
    // Next.js dev logs each server action with its arguments, and useActionState passes the last
    // result back in: a shown signing secret (whsec_…) would reach the log with the next call.
    serverFunctions: false,
    // Nor a request line whose URL carries a secret: a sign-in link's token, an OAuth code.
    incomingRequests: { ignore: [/[?&](token|code)=/] },
  },
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
