import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Lets several builds or dev servers (e.g. the e2e suite beside `npm run dev`) live side by side.
  distDir: process.env.SVC_NEXT_DIST_DIR || ".next",
  // PGlite ships wasm + data files next to its JS and postgres-js uses node sockets: load them from
  // node_modules at run time instead of bundling them.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "ioredis", "rate-limiter-flexible"],
  poweredByHeader: false,
  async rewrites() {
    return [{ source: "/v1/:path*", destination: "/api/v1/:path*" }];
  },
};

export default nextConfig;
