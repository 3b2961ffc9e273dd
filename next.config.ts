import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm + data files next to its JS and postgres-js uses node sockets: load them from
  // node_modules at run time instead of bundling them.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "ioredis", "rate-limiter-flexible"],
  poweredByHeader: false,
  async rewrites() {
    return [{ source: "/v1/:path*", destination: "/api/v1/:path*" }];
  },
};

export default nextConfig;
