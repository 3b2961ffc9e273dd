// ESLint: the layer rule (ARCHITECTURE.md, "Imports point down only") and a modest set of bug-catching
// rules. Formatting is Prettier's job (.prettierrc.json); nothing here is about layout. README, "Why each
// dependency", says why these tools.
import fs from "node:fs";
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * A regex source matching every import specifier that lands in `area` ("lib/domain", "app", ...): the "@/..."
 * alias (tsconfig paths) or a relative path that climbs into it ("../../domain/x" from lib/ports/a/b.ts).
 * Relative imports across areas are rare here; matching them keeps "../" from being a way around the rule.
 * Slashes are escaped so the same source also works inside a no-restricted-syntax selector's /regex/.
 */
function areaRegex(area) {
  const esc = (s) => s.replaceAll("/", "\\/");
  const climb = area.startsWith("lib/") ? `(lib\\/)?${esc(area.slice(4))}` : esc(area);
  return `^(@\\/${esc(area)}|(\\.\\.\\/)+${climb})(\\/|$)`;
}

const LAYER_WHY = "ARCHITECTURE.md: imports point down only (app → lib/api → lib/domain → lib/ports, lib/db).";
const CLIENT_WHY =
  "ARCHITECTURE.md: lib/client is the browser's only way to the server. Use `import type` here: a runtime import ships server code to the browser.";

/**
 * The layer rule: who may not import what. A lower layer never imports a higher one, type-only imports
 * included (a type is still a dependency on the layer above). Components and lib/client are the browser
 * side: type-only imports of server code are fine (erased at build time), runtime imports are not.
 */
/**
 * lib/domain reads no environment and no clock of its own: settings come in ctx.settings (lib/config.ts
 * resolves them once, in the composition root), time from ctx.now or ctx.ports.clock (now() for
 * timestamps, monotonicMs() for durations and deadlines), so a test sets each value and moves time.
 * `new Date(x)` parsing a value is fine; reading "now" is not.
 */
const DOMAIN_AMBIENT_WHY =
  "ARCHITECTURE.md: lib/domain takes settings from ctx.settings and time from ctx.now / ctx.ports.clock (now(), monotonicMs()), never from the process.";
const DOMAIN_AMBIENT_PROPERTIES = [
  { object: "process", property: "env", message: `No process.env in lib/domain. ${DOMAIN_AMBIENT_WHY}` },
  { object: "Date", property: "now", message: `No Date.now() in lib/domain. ${DOMAIN_AMBIENT_WHY}` },
  { object: "performance", property: "now", message: `No performance.now() in lib/domain. ${DOMAIN_AMBIENT_WHY}` },
];
const DOMAIN_AMBIENT_SYNTAX = [
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: `No new Date() in lib/domain. ${DOMAIN_AMBIENT_WHY}` },
  { selector: "CallExpression[callee.name='Date']", message: `No Date() in lib/domain. ${DOMAIN_AMBIENT_WHY}` },
];

/**
 * Inside lib/domain: the core (the message path and the tenancy it runs in) never imports a feature. A
 * feature reacts to a core event through the core's reaction lists (lib/domain/shared/reactions.ts),
 * installed by the composition root lib/domain/reactions.ts, which is the one file naming both sides.
 * A type-only import of a feature's payload shape is fine: it is erased and makes no runtime edge.
 */
const CORE_MODULES = [
  "ingest",
  "messages",
  "conversations",
  "contacts",
  "events",
  "webhooks",
  "media",
  "channels",
  "projects",
  "keys",
  "members",
  "organizations",
  "plans",
  "audit",
  "shared",
  // The inbox's live updates: the core announces its writes there (README "Inbox: live updates").
  "inbox-live",
];
const FEATURE_MODULES = [
  "agents",
  "automations",
  "broadcasts",
  "flows",
  "functions",
  "registration-intents",
  "sandbox-phone",
  "templates",
  "config",
  "readiness",
  "cli-login",
  "inbox",
  "reactions",
];
const CORE_WHY =
  'ARCHITECTURE.md, "Reactions": the core never imports a feature. Declare a ReactionList in the core module and install the feature\'s Reaction in lib/domain/reactions.ts.';

const BOUNDARIES = [
  // Pure data both sides use (the scope list and its catalogue): it imports nothing of ours.
  {
    files: ["lib/shared/**"],
    forbid: ["lib/ports", "lib/db", "lib/domain", "lib/api", "lib/dashboard", "lib/server", "app", "components", "lib/client"],
    why: LAYER_WHY,
  },
  { files: ["lib/ports/**"], forbid: ["lib/domain", "lib/api", "lib/dashboard", "lib/server", "app", "components", "lib/client"], why: LAYER_WHY },
  {
    files: ["lib/domain/**"],
    forbid: ["lib/api", "lib/dashboard", "lib/server", "app", "components", "lib/client"],
    why: LAYER_WHY,
    // In the same rule entry as the layer selectors: a later config's no-restricted-syntax would replace them.
    syntax: DOMAIN_AMBIENT_SYNTAX,
  },
  // The core modules: the domain's layer rule again (a later entry replaces the rule for these files) plus the features.
  {
    files: [...CORE_MODULES.map((m) => `lib/domain/${m}/**`), "lib/domain/context.ts"],
    forbid: ["lib/api", "lib/dashboard", "lib/server", "app", "components", "lib/client"],
    why: LAYER_WHY,
    syntax: DOMAIN_AMBIENT_SYNTAX,
    features: { forbid: FEATURE_MODULES.map((m) => `lib/domain/${m}`), why: CORE_WHY },
  },
  { files: ["lib/api/**", "lib/dashboard/**"], forbid: ["app", "components", "lib/client"], why: LAYER_WHY },
  {
    files: ["components/**", "lib/client/**"],
    forbid: ["lib/domain", "lib/ports", "lib/db", "lib/server", "lib/api", "lib/dashboard"],
    why: CLIENT_WHY,
    allowTypeImports: true,
  },
];

function boundaryConfig({ files, forbid, why, allowTypeImports = false, syntax = [], features = null }) {
  const who = files.length > 3 ? "the core modules of lib/domain" : files.map((f) => f.replace("/**", "")).join(" and ");
  // Features are forbidden at runtime only (type-only imports allowed); the layers, types included.
  // A sibling module is also reached as "../flows/x" from inside lib/domain: the regex takes that form too.
  const soft = features ? features.forbid.map((area) => ({ area, why: features.why, allowTypeImports: true, sibling: area.split("/").pop() })) : [];
  const all = [...forbid.map((area) => ({ area, why, allowTypeImports })), ...soft];
  return {
    name: `svc/layers: ${files.join(", ")}`,
    files: files.map((f) => (f.endsWith("/**") ? `${f}/*.{ts,tsx}` : f)),
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: all.map((entry) => ({
            regex: entry.sibling ? `${areaRegex(entry.area)}|^(\\.\\.\\/)+${entry.sibling}(\\/|$)` : areaRegex(entry.area),
            caseSensitive: true,
            allowTypeImports: entry.allowTypeImports,
            message: `${who} must not import ${entry.area}. ${entry.why}`,
          })),
        },
      ],
      // import() is a runtime import too, and no-restricted-imports does not look at it.
      "no-restricted-syntax": [
        "error",
        ...all.map((entry) => ({
          selector: `ImportExpression[source.value=/${entry.sibling ? `${areaRegex(entry.area)}|^(\\.\\.\\/)+${entry.sibling}(\\/|$)` : areaRegex(entry.area)}/]`,
          message: `${who} must not import ${entry.area} (dynamic import). ${entry.why}`,
        })),
        ...syntax,
      ],
    },
  };
}

export default defineConfig([
  globalIgnores([
    ".next*/**",
    ".data/**",
    "node_modules/**",
    "drizzle/**",
    "coverage/**",
    "out/**",
    "test-results/**",
    "playwright-report/**",
    "e2e/artifacts/**",
    "bench/results/**",
    "packages/*/dist/**",
    "next-env.d.ts",
  ]),
  {
    name: "svc/files",
    files: ["**/*.{ts,tsx,mts,mjs}"],
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  nextPlugin.configs.recommended,
  {
    name: "svc/rules",
    files: ["**/*.{ts,tsx,mts,mjs}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      // Hooks called conditionally are real bugs; missing effect dependencies usually are.
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      // `_name` marks a parameter or binding kept on purpose (a handler's fixed signature, a rest omit).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Type-only imports are what the layer rule lets the browser side use; saying so keeps them erased.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports", disallowTypeAnnotations: false }],
      // A `let` that a closure reads before its one assignment (a timer the settle callback clears) cannot
      // become a `const` without a temporal-dead-zone error.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // `let x = fallback; try { x = ... } catch { ... }` is how the code reads; the compiler's definite
      // assignment checks catch the cases that matter.
      "no-useless-assignment": "off",
    },
  },
  {
    // CONTRIBUTING.md "The rules" (Layers): files in lib/ under 400 lines, functions under 80. A function whose
    // length is the point (a factory returning one object of methods) says why in a disable comment.
    name: "svc/size",
    files: ["lib/**/*.{ts,tsx}"],
    rules: {
      "max-lines": ["error", { max: 400, skipBlankLines: true, skipComments: true }],
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The CLI's HTTP commands are clients of the API through @svc/sdk (cli/sdk.ts): typed paths and answers,
    // its retries and idempotency keys. A bare fetch to the server here would be an untyped client beside it.
    name: "svc/cli-through-sdk",
    files: ["cli/config/**/*.ts", "cli/login.ts", "cli/listen.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "Call the server through @svc/sdk (cli/config/client.ts apiClient, cli/login.ts loginClient)." },
      ],
    },
  },
  {
    // Type-aware rules on the server code and its tools: a promise nobody awaits loses its error (an
    // unhandled rejection, or nothing at all), and an async callback where a void one is expected (an
    // event handler, a forEach) does the same. A promise left to run on purpose says so with `void` and
    // a comment naming where its errors go. Typed linting asks the TypeScript service for every file it
    // checks, so it is limited to the files where a lost promise does harm. The service's program holds
    // the files on disk only: a snippet linted at an invented path (tests/lint/) gets the other rules.
    name: "svc/promises",
    files: ["lib/**/*.{ts,tsx}", "cli/**/*.ts", "scripts/**/*.ts"],
    ignores: [(filePath) => !fs.existsSync(filePath)],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    name: "svc/tests",
    files: ["tests/**", "e2e/**"],
    // Response bodies and fixtures are read as `any` on purpose: the assertions are the type check.
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  ...BOUNDARIES.map(boundaryConfig),
  {
    name: "svc/domain-ambient",
    files: ["lib/domain/**/*.{ts,tsx}"],
    rules: { "no-restricted-properties": ["error", ...DOMAIN_AMBIENT_PROPERTIES] },
  },
]);
