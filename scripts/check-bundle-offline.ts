/**
 * CI, after the production build: fails when the browser bundle (`<dist>/static`) names a public CDN
 * (scripts/bundle-offline.ts lists them). The dist folder is SVC_NEXT_DIST_DIR's, as next.config.ts
 * builds it, or the first argument.
 *
 *   npm run build && npm run check:bundle-offline
 *   npm run check:bundle-offline -- .next-other
 */
import fs from "node:fs";
import path from "node:path";
import { scanForCdnReferences } from "./bundle-offline";

function main(): number {
  const distDir = process.argv[2] || process.env.SVC_NEXT_DIST_DIR || ".next";
  const staticDir = path.resolve(distDir, "static");
  if (!fs.existsSync(staticDir)) {
    console.error(`check-bundle-offline: there is no build at ${staticDir}; run npm run build first (with the same SVC_NEXT_DIST_DIR).`);
    return 2;
  }
  const references = scanForCdnReferences(staticDir);
  if (references.length === 0) {
    console.log(`check-bundle-offline: OK (no CDN address in ${path.relative(process.cwd(), staticDir) || staticDir})`);
    return 0;
  }
  for (const { file, host, excerpt } of references) console.error(`check-bundle-offline: ${path.relative(process.cwd(), file)}: ${host} in …${excerpt}…`);
  console.error(
    "check-bundle-offline: FAILED: the browser bundle names a CDN. Find the package that carries the address (grep -r <host> node_modules/<package>), " +
      "then bundle what it loads or alias the module in next.config.ts (turbopack.resolveAlias), as @monaco-editor/loader is.",
  );
  return 1;
}

process.exit(main());
