import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Lets several builds or dev servers (e.g. the e2e suite beside `npm run dev`) live side by side.
  distDir: process.env.SVC_NEXT_DIST_DIR || ".next",
  // PGlite ships wasm + data files next to its JS and postgres-js uses node sockets: load them from
  // node_modules at run time instead of bundling them. esbuild drives its native binary (hosted
  // functions' transpiler); quickjs-emscripten is loaded by the sandbox's worker threads from node_modules.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "ioredis",
    "rate-limiter-flexible",
    "esbuild",
    "quickjs-emscripten",
    "prom-client",
    // One copy of the OpenTelemetry API for next's own spans and ours (lib/server/tracing.ts), loaded from node_modules.
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
  ],
  poweredByHeader: false,
  turbopack: {
    resolveAlias: {
      // @monaco-editor/react's loader carries a CDN default (jsdelivr) and would inject a <script> from
      // it; the stand-in only hands over the Monaco the app bundles. check-bundle-offline guards it.
      "@monaco-editor/loader": "./components/code-editor/bundled-monaco-loader.ts",
    },
  },
  // CI type-checks the whole project in its own stage (`npm run typecheck`, the same tsconfig) before
  // it builds; SVC_BUILD_TYPECHECKED=1 there spares the build a second pass over the same files.
  typescript: { ignoreBuildErrors: process.env.SVC_BUILD_TYPECHECKED === "1" },
  async rewrites() {
    return [{ source: "/v1/:path*", destination: "/api/v1/:path*" }];
  },
  // Browsers still ask for /favicon.ico when a page's <link rel="icon"> has not arrived yet (Next
  // streams metadata after the shell): send them to the one icon there is instead of a 404.
  async redirects() {
    return [{ source: "/favicon.ico", destination: "/icon.svg", permanent: true }];
  },
};

export default nextConfig;
