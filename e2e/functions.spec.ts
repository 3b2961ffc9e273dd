import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect as baseExpect, test, type APIRequestContext, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

/**
 * Hosted functions end to end: an operator creates a function, types code into the Monaco editor,
 * deploys a syntax error and sees its marker, fixes it and deploys, sets a secret, runs a test that
 * logs, reads the secret and fetches a local URL, finds the run in the invocation history, deploys a
 * second version and rolls back to the first.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
// A production build on a shared machine, with Monaco's TypeScript worker starting: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The function's fetch target: a loopback server that answers JSON and remembers the secret header it got. */
async function startTarget() {
  const seen: { path: string; token: string | undefined }[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ path: request.url ?? "", token: request.headers["x-shop-token"] as string | undefined });
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ stock: 7 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function ownProject(request: APIRequestContext, run: string): Promise<{ id: string }> {
  const created = await request.post("/api/v1/projects", { headers: auth, data: { name: `Functions e2e ${run}` } });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()) as { id: string };
}

/**
 * Replaces the editor's whole text by pasting it, as a user would: typed character by character,
 * Monaco's auto-indent and auto-closed brackets would change multi-line code.
 */
async function replaceCode(page: Page, code: string) {
  await page.evaluate((text) => navigator.clipboard.writeText(text), code);
  const editor = page.getByTestId("function-code-editor");
  // Select-all and paste again until the editor holds exactly the code: on a loaded machine the first
  // Ctrl+A can land before the editor has focus, and the paste then goes in beside the template.
  await expect(async () => {
    await editor.locator(".monaco-editor .view-lines").click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+v");
    await expect(editor.locator(".view-line")).toHaveCount(code.split("\n").length, { timeout: 2_000 });
    await expect(editor.locator(".view-lines")).toContainText(code.split("\n")[0]!.slice(0, 30), { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** Deploy asks first (the diff against the live code); only the dialog's button deploys. */
async function deploy(page: Page, expected: "ok" | "error") {
  await page.getByTestId("function-deploy").click();
  const dialog = page.getByRole("dialog", { name: "Deploy to live traffic?" });
  await dialog.getByTestId("deploy-confirm").click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("deploy-outcome")).toHaveAttribute("data-status", expected);
}

test("create, edit in Monaco, deploy, test with fetch and a secret, see the run, roll back", async ({ page, request }) => {
  test.setTimeout(240_000);
  await warmUpAuth(request);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const run = Date.now().toString(36);
  const target = await startTarget();
  try {
    const project = await ownProject(request, run);
    await signIn(page);

    // 1. Create the function from the list.
    await page.goto(`/projects/${project.id}/functions`);
    await expect(page.getByRole("heading", { name: "Functions", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "New function" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name", { exact: true }).fill(`Stock check ${run}`);
    await dialog.getByLabel("Slug", { exact: true }).fill(`stock-${run}`);
    await dialog.getByRole("button", { name: "Create function" }).click();
    await expect(page).toHaveURL(/\/functions\/[^/]+$/);
    const functionUrl = page.url();
    await expect(page.getByTestId("function-code-editor").locator(".monaco-editor")).toBeVisible();

    // 2. A syntax error typed at the end: deploy answers diagnostics, shown in the list and as a marker.
    await replaceCode(page, "export default async function (event) {\n  return { ok: true };\n}\n");
    await page.keyboard.press("Control+End");
    // As one insertion: typed key by key, the editor's suggestions can take a keystroke.
    await page.keyboard.insertText("const = 1;");
    await expect(page.getByTestId("function-code-editor").locator(".view-lines")).toContainText("const = 1;");
    await deploy(page, "error");
    await expect(page.getByTestId("deploy-diagnostics")).toContainText(/Line 4, column \d+/);
    await expect(page.getByTestId("function-code-editor").locator(".squiggly-error").first()).toBeVisible();
    await screenshot(page, "functions-deploy-error");

    // 3. A secret, then the fixed code: it logs, reads env.SHOP_TOKEN and fetches the local URL.
    await page.getByRole("tab", { name: "Secrets" }).click();
    const secretForm = page.getByRole("form", { name: "Set a secret" });
    await secretForm.getByLabel("Name", { exact: true }).fill("SHOP_TOKEN");
    await secretForm.getByLabel("Value", { exact: true }).fill(`shp_${run}`);
    await secretForm.getByRole("button", { name: /Add secret|Replace value/ }).click();
    await expect(page.locator('[data-testid="secret-row"][data-secret-name="SHOP_TOKEN"]')).toBeVisible();
    await expect(page.getByText(`shp_${run}`)).toHaveCount(0);

    const fixed = [
      "export default async function (event: { text?: string }) {",
      `  const res = await fetch("${target.url}/stock?sku=" + encodeURIComponent(event.text ?? ""), { headers: { "x-shop-token": env.SHOP_TOKEN } });`,
      "  const body = await res.json();",
      '  console.log("stock for", event.text, "is", body.stock);',
      "  return { sku: event.text, stock: body.stock, version: 1 };",
      "}",
    ].join("\n");
    await replaceCode(page, fixed);
    await deploy(page, "ok");

    // 4. Run a test: result, logs and the fetch reached the target with the secret.
    await page.getByLabel("Message text").fill("SKU-42");
    await page.getByTestId("function-test-run").click();
    const output = page.getByTestId("run-output");
    await expect(output).toHaveAttribute("data-status", "ok");
    await expect(page.getByTestId("run-result")).toContainText('"stock": 7');
    await expect(page.getByTestId("run-logs")).toContainText("stock for SKU-42 is 7");
    baseExpect(target.seen).toEqual([{ path: "/stock?sku=SKU-42", token: `shp_${run}` }]);
    await screenshot(page, "functions-test-run");

    // 5. The run is in the invocation history, with its detail.
    await page.getByRole("tab", { name: "Runs" }).click();
    const row = page.getByTestId("invocation-row").first();
    await expect(row).toHaveAttribute("data-status", "ok");
    await row.getByRole("button").first().click();
    await expect(page.getByTestId("invocation-detail")).toContainText("stock for SKU-42 is 7");
    await page.keyboard.press("Escape");

    // 6. Version 2, then roll back to version 1: the next test answers version 1 again.
    await replaceCode(page, fixed.replace("version: 1", "version: 2"));
    await deploy(page, "ok");
    await page.getByRole("tab", { name: "Versions" }).click();
    await expect(page.getByTestId("version-row")).toHaveCount(2);
    await page.getByRole("button", { name: "Roll back to version 1" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Roll back", exact: true }).click();
    await expect(page.locator('[data-testid="version-row"][data-active="true"]')).toContainText("1");
    await page.goto(functionUrl);
    await page.getByLabel("Message text").fill("SKU-7");
    await page.getByTestId("function-test-run").click();
    await expect(page.getByTestId("run-result")).toContainText('"version": 1');
    await screenshot(page, "functions-rolled-back");
  } finally {
    await target.close();
  }
});

// Issue 32 items 7 and 16: Save is not Deploy, the keyboard can leave the editor, and the editor is
// usable before Monaco and its TypeScript worker have arrived, across the page's width.

const V1 = "export default async function () { return { version: 1 }; }";
const V2 = "export default async function () { return { version: 2 }; }";

interface FunctionWire {
  id: string;
  script_name: string;
  source: string | null;
  active_version_id: string | null;
}

/** A project of the test's own with one function deployed as V1, made through the dashboard's API as the signed-in owner. */
async function deployedV1(page: Page, request: APIRequestContext, name: string) {
  const run = Date.now().toString(36);
  const project = await ownProject(request, `${name} ${run}`);
  await signIn(page);
  const api = (path: string) => `/api/dashboard/projects/${project.id}${path}`;
  const created = await page.request.post(api("/functions"), { data: { slug: `fn-${run}`, name: `${name} ${run}`, trigger_type: "KEYWORD" } });
  expect(created.ok(), await created.text()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  const deployed = await page.request.post(api(`/functions/${id}/deploy`), { data: { source: V1 } });
  expect(((await deployed.json()) as { status: string }).status).toBe("ok");
  return {
    slug: `fn-${run}`,
    url: `/projects/${project.id}/functions/${id}`,
    live: async () => (await (await page.request.get(api(`/functions/${id}`))).json()) as FunctionWire,
    draft: async () => ((await (await page.request.get(api(`/functions/${id}/draft`))).json()) as { source: string | null }).source,
  };
}

const codeArea = (page: Page) => page.getByTestId("function-code-editor");

/** Monaco is on screen; its whole text becomes `code`, inserted as one input event (typed key by key, Monaco drops keys while it starts). */
async function replaceInMonaco(page: Page, code: string) {
  const lines = codeArea(page).locator(".monaco-editor .view-lines");
  await expect(lines).toBeVisible();
  await lines.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(code);
  await expect(lines).toContainText(code.slice(-30));
}

/** Whether the focused element is inside the element with this test id. */
const focusInside = (page: Page, testId: string) =>
  page.evaluate((id) => Boolean(document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement)), testId);

test("Ctrl+S saves a draft that does not run; a reload keeps it; Deploy shows the diff and only its button makes v2 live", async ({ page, request }) => {
  test.setTimeout(180_000);
  await warmUpAuth(request);
  const fn = await deployedV1(page, request, "Draft e2e");
  await page.goto(fn.url);
  await replaceInMonaco(page, V2);
  await expect(page.getByTestId("function-draft-state")).toContainText("Unsaved changes");

  // Save (Ctrl+S in the editor): a draft, and what runs is still version 1.
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("function-draft-badge")).toHaveText("Draft — not deployed");
  await expect(page.getByTestId("function-draft-state")).not.toContainText("Unsaved changes");
  baseExpect(await fn.draft()).toBe(V2);
  const stillV1 = await fn.live();
  baseExpect(stillV1.script_name).toBe(`${fn.slug}-v1`);
  baseExpect(stillV1.source).toBe(V1);
  await page.getByLabel("Message text").fill("hi");
  await page.getByTestId("function-test-run").click();
  await expect(page.getByTestId("run-result")).toContainText('"version": 1');

  // A reload opens on the draft and says it is not deployed.
  await page.reload();
  await expect(codeArea(page).locator(".view-lines")).toContainText("version: 2");
  await expect(page.getByTestId("function-draft-badge")).toHaveText("Draft — not deployed");
  await screenshot(page, "functions-draft-saved");

  // Deploy asks first, with the live code beside the code to deploy; Cancel changes nothing.
  await page.getByTestId("function-deploy").click();
  const dialog = page.getByRole("dialog", { name: "Deploy to live traffic?" });
  await expect(dialog).toContainText(`This code replaces ${fn.slug}-v1 for every run`);
  const diff = dialog.getByTestId("deploy-diff");
  // While Monaco measures the dialog it can lay the diff out inline for a frame, with the removed lines as a
  // "line-delete" view zone inside the modified side: each side's own lines are the ones that are not that zone.
  const sideLines = (side: "original" | "modified") => diff.locator(`.monaco-diff-editor .editor.${side} .view-lines:not(.line-delete)`);
  await expect(sideLines("original")).toContainText("version: 1");
  await expect(sideLines("modified")).toContainText("version: 2");
  await expect(diff.getByTestId("code-editor-keyboard-hint")).toContainText("Read-only");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "functions-deploy-diff");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  baseExpect((await fn.live()).script_name).toBe(`${fn.slug}-v1`);

  await page.getByTestId("function-deploy").click();
  await dialog.getByTestId("deploy-confirm").click();
  await expect(page.getByTestId("deploy-outcome")).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("function-draft-badge")).toHaveCount(0);
  const v2 = await fn.live();
  baseExpect(v2.script_name).toBe(`${fn.slug}-v2`);
  baseExpect(v2.source).toBe(V2);
  baseExpect(await fn.draft()).toBeNull();
  // Nothing left to deploy: the editor holds the live code.
  await expect(page.getByTestId("function-deploy")).toBeDisabled();
});

test("Escape then Tab leaves the function's code editor (Tab alone indents), with the way out written under it", async ({ page, request }) => {
  test.setTimeout(120_000);
  await warmUpAuth(request);
  const fn = await deployedV1(page, request, "Keyboard e2e");
  await page.goto(fn.url);
  await expect(codeArea(page).getByTestId("code-editor-keyboard-hint")).toContainText("press Esc then Tab");
  const lines = codeArea(page).locator(".monaco-editor .view-lines");
  await lines.click();
  await page.keyboard.press("Control+End");

  // Tab alone stays in the editor (it indents there).
  await page.keyboard.press("Tab");
  baseExpect(await focusInside(page, "function-code-editor")).toBe(true);

  // Escape, then Tab: the next control after the editor (the Run panel's first button).
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Message", exact: true })).toBeFocused();
  baseExpect(await focusInside(page, "function-code-editor")).toBe(false);

  // Back in, then Escape and Shift+Tab: the control before it (Deploy).
  await page.keyboard.press("Shift+Tab");
  baseExpect(await focusInside(page, "function-code-editor")).toBe(true);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByTestId("function-deploy")).toBeFocused();
});

test("the code area spans the page's content column", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await warmUpAuth(request);
  const fn = await deployedV1(page, request, "Width e2e");
  await page.goto(fn.url);
  await expect(codeArea(page).locator(".monaco-editor")).toBeVisible();
  const area = (await codeArea(page).boundingBox())!;
  const column = (await page.getByTestId("function-workspace").boundingBox())!;
  baseExpect(area.width).toBeGreaterThan(column.width - 2);
  baseExpect(area.x).toBeCloseTo(column.x, 0);
  // And Monaco itself fills it.
  const monaco = (await codeArea(page).locator(".monaco-editor").boundingBox())!;
  baseExpect(monaco.width).toBeGreaterThan(column.width - 4);
});

/** A request the test releases when it chooses. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open, requested: false };
}

test("the code is editable before Monaco arrives, and Monaco takes typing before the TypeScript worker does", async ({ page, request }) => {
  test.setTimeout(180_000);
  await warmUpAuth(request);
  const fn = await deployedV1(page, request, "Fast e2e");
  const monacoChunk = gate();
  const tsWorker = gate();
  // Hold Monaco's editor core and the TypeScript worker (recognised by what they contain) until released below.
  await page.context().route("**/_next/static/chunks/**", async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    const text = body.toString("utf8");
    const held = text.includes("createLanguageService") ? tsWorker : text.includes("monaco-scrollable-element") ? monacoChunk : null;
    if (held) {
      held.requested = true;
      await held.opened;
    }
    await route.fulfill({ response, body });
  });

  await page.goto(fn.url);
  const plain = codeArea(page).locator("textarea[data-code-fallback]");
  await expect(plain).toBeEditable();
  await expect(plain).toHaveValue(V1);
  // The route handler marks the chunk once its body is read: the request may still be on its way.
  await expect.poll(() => monacoChunk.requested).toBe(true);
  await expect(codeArea(page).locator(".monaco-editor")).toHaveCount(0);
  await plain.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText(" // typed before Monaco");
  await expect(plain).toHaveValue(`${V1} // typed before Monaco`);

  // Monaco takes over with the text typed so far, the caret where it was, while the TypeScript worker is still held.
  monacoChunk.open();
  const lines = codeArea(page).locator(".monaco-editor .view-lines");
  await expect(lines).toContainText("typed before Monaco");
  await expect(plain).toHaveCount(0);
  await page.keyboard.insertText(" and after");
  await expect(lines).toContainText("typed before Monaco and after");
  baseExpect(await focusInside(page, "function-code-editor")).toBe(true);

  // The worker is asked for once the editor is up, and the type checking it brings arrives when it does.
  await expect.poll(() => tsWorker.requested).toBe(true);
  await expect(codeArea(page).locator(".squiggly-error")).toHaveCount(0);
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await page.keyboard.insertText('const count: number = "three";');
  tsWorker.open();
  await expect(codeArea(page).locator(".squiggly-error").first()).toBeVisible();
});
