/**
 * How fast the function editor appears (issue 32 item 16), on a production server that is already
 * running (`next start`, the e2e environment: its bootstrap key and first-run owner).
 *
 *   SVC_E2E_PORT=3204 npx tsx scripts/measure-function-editor.ts [runs]
 *
 * Each run is a cold cache: a fresh browser context (no HTTP cache), signed in through the form, then
 * navigation to a deployed function's page. It prints, per run: the time from navigation to the code
 * area accepting typing (text inserted and shown), to the plain text area that stands in for Monaco
 * while it loads (when the build has one), to Monaco's own editor, and to the TypeScript
 * worker's script arriving; and the JavaScript the page and its workers downloaded (encoded and
 * decoded bytes; MEASURE_FILES=1 lists each file). Timing is this machine's, so it is printed, never asserted.
 */
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_KEY, E2E_PORT } from "../e2e/env";

const base = `http://127.0.0.1:${E2E_PORT}`;
const auth = { authorization: `Bearer ${E2E_KEY}`, "content-type": "application/json" };
const SOURCE = [
  "export default async function (event: { text?: string }) {",
  '  const words = (event.text ?? "").split(/\\s+/).filter(Boolean);',
  "  return { words: words.length, upper: words.map((word) => word.toUpperCase()) };",
  "}",
  "",
].join("\n");
const MARK = "/*typed*/";

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/api/v1${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A project (bootstrap key) with one deployed function, made through the dashboard's API as the signed-in owner. */
async function deployedFunction(page: Page): Promise<string> {
  const run = Date.now().toString(36);
  const project = await api<{ id: string }>("POST", "/projects", { name: `Editor timing ${run}` });
  const dashboard = `${base}/api/dashboard/projects/${project.id}`;
  const created = await page.request.post(`${dashboard}/functions`, { data: { slug: `timing-${run}`, name: `Timing ${run}`, trigger_type: "KEYWORD" } });
  if (!created.ok()) throw new Error(`create function: ${await created.text()}`);
  const fn = (await created.json()) as { id: string };
  const deployed = await page.request.post(`${dashboard}/functions/${fn.id}/deploy`, { data: { source: SOURCE } });
  if (!deployed.ok()) throw new Error(`deploy: ${await deployed.text()}`);
  return `/projects/${project.id}/functions/${fn.id}`;
}

async function signIn(page: Page) {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(E2E_ADMIN_EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/projects\//);
}

interface Bytes {
  encoded: number;
  decoded: number;
  files: number;
}

/** Every JavaScript response of the context (the page's and its workers'), counted when its body has arrived. */
function countScripts(context: BrowserContext) {
  const bytes: Bytes = { encoded: 0, decoded: 0, files: 0 };
  let tsWorkerAt: number | null = null;
  context.on("response", (response) => {
    const url = response.url();
    if (!/\.js(\?|$)/.test(url) || !url.startsWith(base)) return;
    // Counted as each body arrives, beside the page's own work; a response whose body or sizes are gone
    // (the page navigated away) is not counted rather than an unhandled rejection.
    void (async () => {
      const body = await response.body().catch(() => null);
      if (!body) return;
      const sizes = await response
        .request()
        .sizes()
        .catch(() => null);
      if (!sizes) return;
      bytes.encoded += sizes.responseBodySize;
      bytes.decoded += body.length;
      bytes.files += 1;
      if (process.env.MEASURE_FILES === "1") console.log(`  ${String(body.length).padStart(9)} ${new URL(url).pathname}`);
      if (body.includes("typescriptServices") || body.includes("createLanguageService")) tsWorkerAt ??= Date.now();
    })();
  });
  return { bytes, tsWorkerAt: () => tsWorkerAt };
}

type SessionState = Awaited<ReturnType<BrowserContext["storageState"]>>;

async function once(browser: Awaited<ReturnType<typeof chromium.launch>>, state: SessionState, path: string) {
  // Cold: a new context has an empty HTTP cache; only the session cookie is carried over.
  const context = await browser.newContext({ storageState: state, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const scripts = countScripts(context);
  const start = Date.now();
  const since = () => Date.now() - start;
  const plainAt = page
    .waitForSelector('[data-testid="function-code-editor"] textarea[data-code-fallback]', { state: "attached", timeout: 60_000 })
    .then(since, () => null);
  const monacoAt = page.waitForSelector('[data-testid="function-code-editor"] .monaco-editor .view-lines', { timeout: 60_000 }).then(since);
  await page.goto(`${base}${path}`);
  const area = page.getByTestId("function-code-editor");
  // Click where a user would: the plain text area while Monaco loads, else Monaco's lines (re-resolved if the one swaps for the other).
  await area
    .locator("textarea[data-code-fallback], .monaco-editor .view-lines")
    .first()
    .click({ position: { x: 2, y: 2 }, timeout: 60_000 });
  await page.keyboard.insertText(MARK);
  await page.waitForFunction(
    (mark) => {
      const root = document.querySelector('[data-testid="function-code-editor"]');
      const textarea = root?.querySelector<HTMLTextAreaElement>("textarea[data-code-fallback]");
      return Boolean(textarea?.value.includes(mark) || root?.querySelector(".view-lines")?.textContent?.includes(mark));
    },
    MARK,
    { timeout: 60_000 },
  );
  const typedMs = since();
  const monacoMs = await monacoAt;
  const plainMs = await plainAt;
  // Let the TypeScript worker arrive (it may start later on purpose) before counting bytes.
  await page.waitForTimeout(8_000);
  const tsAt = scripts.tsWorkerAt();
  const widths = await page.evaluate(() => {
    const editor = document.querySelector('[data-testid="function-code-editor"]')?.getBoundingClientRect().width ?? 0;
    const main = document.querySelector("main")?.getBoundingClientRect().width ?? 0;
    return { editor: Math.round(editor), main: Math.round(main) };
  });
  await context.close();
  return { typedMs, plainMs, monacoMs, tsWorkerMs: tsAt === null ? null : tsAt - start, ...scripts.bytes, ...widths };
}

const runs = Number(process.argv[2] ?? 3);
const browser = await chromium.launch({ executablePath: process.env.SVC_E2E_CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const setUp = await browser.newContext();
  const setUpPage = await setUp.newPage();
  await signIn(setUpPage);
  const path = await deployedFunction(setUpPage);
  const state = await setUp.storageState();
  await setUp.close();
  for (let index = 0; index < runs; index += 1) {
    const result = await once(browser, state, path);
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    console.log(
      `run ${index + 1}: typing accepted ${result.typedMs} ms (plain text area ${result.plainMs ?? "-"} ms), Monaco ${result.monacoMs} ms, TS worker ${result.tsWorkerMs ?? "-"} ms; ` +
        `JS ${result.files} files ${mb(result.encoded)} encoded / ${mb(result.decoded)} decoded; editor ${result.editor}px of main ${result.main}px`,
    );
  }
} finally {
  await browser.close();
}
