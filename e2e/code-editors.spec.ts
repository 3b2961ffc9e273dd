import { expect as baseExpect, test, type Page } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * Every code editor of the dashboard (issue 32 item 7) sits in the shared frame of
 * components/code-editor: the way out for keyboard users (Esc then Tab, or Ctrl+M) is written under
 * each one, and Escape then Tab leaves it. The function, Flow JSON, config document and small JSON
 * editors are visited here; the deploy diff is in e2e/functions.spec.ts.
 */

// A production build on a shared machine, with Monaco's workers starting: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Each Monaco on the page (at least `count`) has the keyboard hint in its frame; answers the hints' texts. */
async function hintsOfEveryEditor(page: Page, count: number): Promise<string[]> {
  await expect.poll(() => page.locator(".monaco-editor").count()).toBeGreaterThanOrEqual(count);
  const hints = await page.evaluate(() =>
    [...document.querySelectorAll(".monaco-editor")].map(
      (editor) => editor.closest("[data-code-editor-frame]")?.querySelector('[data-testid="code-editor-keyboard-hint"]')?.textContent ?? null,
    ),
  );
  // Editable editors: Esc then Tab. Read-only ones do not take Tab at all.
  for (const hint of hints) baseExpect(hint).toMatch(/press Esc then Tab|Read-only: Tab moves on/);
  return hints as string[];
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  await warmUpAuth(request);
});

test("the function editor and its JSON editors say how to leave them", async ({ page, request }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Code editors e2e ${run}`);
  await signIn(page);
  const created = await page.request.post(`/api/dashboard/projects/${project.id}/functions`, {
    data: { slug: `hint-${run}`, name: `Hint ${run}`, trigger_type: "KEYWORD" },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/projects/${project.id}/functions/${id}`);
  const [source] = await hintsOfEveryEditor(page, 1);
  baseExpect(source).toContain("Ctrl+M");

  // The Run panel's arguments editor, and the input schema's under Settings.
  await page.getByRole("button", { name: "Arguments", exact: true }).click();
  await expect(page.getByTestId("invoke-arguments-editor").getByTestId("code-editor-keyboard-hint")).toBeVisible();
  await page.getByRole("tab", { name: "Settings" }).click();
  await expect(page.getByTestId("input-schema-editor").getByTestId("code-editor-keyboard-hint")).toBeVisible();
  await hintsOfEveryEditor(page, 3);

  // Screen readers hear the hint as the description of the editor's text area.
  await page.getByTestId("function-code-editor").locator(".monaco-editor .view-lines").click();
  const described = await page.evaluate(() => {
    const ids = document.activeElement?.getAttribute("aria-describedby")?.split(" ") ?? [];
    return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
  });
  baseExpect(described).toContain("press Esc then Tab");
  await screenshot(page, "code-editors-function");
});

test("the Flow JSON editor says how to leave it", async ({ page, request }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Code editors flows e2e ${run}`);
  await signIn(page);
  await page.goto(`/projects/${project.id}/flows`);
  await page.getByRole("button", { name: "New flow" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New flow" });
  await dialog.getByLabel("Name", { exact: true }).fill(`Hints ${run}`);
  await dialog.getByLabel(/^Config key/).fill(`hints_${run}`);
  await dialog.getByLabel(/^Locale/).fill("en");
  await dialog.getByRole("button", { name: "Create flow" }).click();
  await expect(page).toHaveURL(/\/flows\/[^/]+$/);
  await page.getByRole("tab", { name: "Flow JSON" }).click();
  const editor = page.getByTestId("flow-json-editor");
  await expect(editor.locator(".monaco-editor")).toBeVisible();
  // A flow made in the builder shows its Flow JSON read-only: Tab moves on by itself.
  await expect(editor.getByTestId("code-editor-keyboard-hint")).toContainText("Read-only: Tab moves on to the next control.");
  await hintsOfEveryEditor(page, 1);
  await editor.locator(".monaco-editor .view-lines").click();
  baseExpect(await editor.evaluate((frame) => frame.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Tab");
  baseExpect(await editor.evaluate((frame) => frame.contains(document.activeElement))).toBe(false);
  await screenshot(page, "code-editors-flow-json");
});

test("the config document editors say how to leave them, and Escape then Tab leaves the one you type in", async ({ page, request }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Code editors config e2e ${run}`);
  await signIn(page);
  await page.goto(`/projects/${project.id}/config`);
  await expect(page.getByRole("heading", { name: "Config", level: 1 })).toBeVisible();
  const draft = page.getByTestId("config-draft-editor");
  await expect(draft.locator(".monaco-editor")).toBeVisible();
  await expect(page.getByTestId("config-export-editor").getByTestId("code-editor-keyboard-hint")).toContainText("Read-only");
  await expect(draft.getByTestId("code-editor-keyboard-hint")).toContainText("press Esc then Tab");
  await hintsOfEveryEditor(page, 2);

  // The read-only export does not take Tab at all.
  const exported = page.getByTestId("config-export-editor");
  await exported.locator(".monaco-editor .view-lines").click();
  baseExpect(await exported.evaluate((frame) => frame.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Tab");
  baseExpect(await exported.evaluate((frame) => frame.contains(document.activeElement))).toBe(false);

  await draft.locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("Tab");
  baseExpect(await draft.evaluate((frame) => frame.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  baseExpect(await draft.evaluate((frame) => frame.contains(document.activeElement))).toBe(false);
  const focused = await page.evaluate(() => document.activeElement?.tagName ?? null);
  baseExpect(focused).not.toBe("BODY");
  await screenshot(page, "code-editors-config");
});

test("in a dialog, Escape in an editor keeps the dialog open, and Tab then leaves the editor for the dialog's next control", async ({ page, request }) => {
  test.setTimeout(150_000);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Code editors dialog e2e ${run}`);
  await signIn(page);
  await page.goto(`/projects/${project.id}/agent`);
  await page.getByRole("button", { name: "Enable agent" }).click();
  await expect(page.getByTestId("agent-status")).toHaveText("ACTIVE", { timeout: 45_000 });
  await page.getByRole("tab", { name: "Connectors" }).click();
  await page.getByRole("button", { name: "New connector" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Tools");
  await page.getByRole("button", { name: "Create connector" }).click();
  const connector = page.getByRole("listitem", { name: "Connector Tools" });
  await connector.getByRole("button", { name: "Add tool" }).click();
  const dialog = page.getByRole("dialog");
  await page.getByLabel("Tool name", { exact: true }).fill("lookup");
  const frame = dialog
    .locator("[data-code-editor-frame]")
    .filter({ has: page.locator(".monaco-editor") })
    .last();
  await expect(frame.getByTestId("code-editor-keyboard-hint")).toContainText("press Esc then Tab");
  await frame.locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Tab");
  baseExpect(await frame.evaluate((element) => element.contains(document.activeElement))).toBe(false);
  baseExpect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await expect(page.getByLabel("Tool name", { exact: true })).toHaveValue("lookup");
  // Outside the editor, Escape closes the dialog as always.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});
