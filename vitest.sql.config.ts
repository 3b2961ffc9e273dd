import base from "./vitest.config";
import { mergeConfig } from "vitest/config";
export default mergeConfig(base, { test: { setupFiles: ["tests/support/zz-sql.ts"] } });
