import type { NextConfig } from "next";

const config: NextConfig = {
  poweredByHeader: false,
  // {base_url} may be {app_url}/api or an API host of its own: serve both path shapes.
  async rewrites() {
    return [
      { source: "/v1/:path*", destination: "/api/v1/:path*" },
      { source: "/public/:path*", destination: "/api/public/:path*" },
    ];
  },
};

export default config;
