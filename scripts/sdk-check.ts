/**
 * CI: regenerates the SDK's OpenAPI document and types in memory and compares them with the committed
 * files. Exit 1 when any differs: a route or schema changed without `npm run sdk:generate`.
 *
 *   npm run sdk:check
 */
import path from "node:path";
import { SDK_DIR, staleSdkFiles } from "./sdk-codegen";

const stale = await staleSdkFiles();
if (stale.length) {
  for (const file of stale) console.error(`sdk:check: ${path.relative(process.cwd(), path.join(SDK_DIR, file))} is stale`);
  console.error("sdk:check: FAILED: the SDK does not match the served OpenAPI document; run npm run sdk:generate and commit the result.");
  process.exit(1);
}
console.log("sdk:check: OK (packages/sdk matches the served OpenAPI document)");
