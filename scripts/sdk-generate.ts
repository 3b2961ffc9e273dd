/**
 * Regenerates the SDK's OpenAPI document and types (packages/sdk/openapi.json, src/schema.ts,
 * src/cli-login-schema.ts) from the route tables. Run after changing an /api/v1 or /api/cli route or
 * schema, and commit the result:
 *
 *   npm run sdk:generate
 */
import path from "node:path";
import { SDK_DIR, writeSdkFiles } from "./sdk-codegen";

const written = await writeSdkFiles();
for (const file of written) console.log(`sdk:generate: wrote ${path.relative(process.cwd(), path.join(SDK_DIR, file))}`);
