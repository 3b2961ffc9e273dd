import { expect as baseExpect, test, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

/**
 * What the production build serves besides pages (issue 32 item 18): the top-level public/ folder
 * (robots.txt, the icon every page names) and a code editor whose Monaco comes from this server
 * only, since @monaco-editor/loader (with its jsdelivr default) is swapped for a bundled stand-in.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
// A production build on a shared machine, with Monaco's workers starting: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  await warmUpAuth(request);
});

/** Requests to any other origin, script errors and console errors, from now on. */
function watch(page: Page, origin: string) {
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== origin) foreign.push(request.url());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
  });
  return { foreign, errors };
}

test("robots.txt keeps every crawler out of the dashboard", async ({ request }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
  const lines = (await robots.text()).split("\n").map((line) => line.trim());
  expect(lines).toContain("User-agent: *");
  expect(lines).toContain("Disallow: /");
});

test("every page names the SVG icon from public/, and pages say noindex", async ({ page, request }) => {
  await page.goto("/sign-in");
  const icon = page.locator('head link[rel="icon"]');
  await expect(icon).toHaveCount(1);
  await expect(icon).toHaveAttribute("href", "/icon.svg");
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  const served = await request.get("/icon.svg");
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  expect(await served.text()).toContain("<svg");
  // A browser that asks for /favicon.ico before the page's icon link arrives is sent to the same icon.
  const legacy = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(legacy.status()).toBe(308);
  expect(legacy.headers()["location"]).toBe("/icon.svg");
  await screenshot(page, "public-assets-sign-in");
});

test("the function editor's Monaco loads from this server only, with no console error", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const created = await request.post("/api/v1/projects", { headers: auth, data: { name: `Public assets e2e ${run}` } });
  expect(created.ok(), await created.text()).toBe(true);
  const project = (await created.json()) as { id: string };
  await signIn(page);
  const fn = await page.request.post(`/api/dashboard/projects/${project.id}/functions`, {
    data: { slug: `offline-${run}`, name: `Offline ${run}`, trigger_type: "KEYWORD" },
  });
  expect(fn.ok(), await fn.text()).toBe(true);
  const { id } = (await fn.json()) as { id: string };

  const seen = watch(page, new URL(baseURL!).origin);
  await page.goto(`/projects/${project.id}/functions/${id}`);
  const editor = page.getByTestId("function-code-editor");
  await expect(editor.locator(".monaco-editor .view-lines")).toBeVisible();
  // Typing reaches the model: the editor is Monaco itself, not a fallback.
  await editor.locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  // One input event: keys typed one by one while Monaco's TypeScript worker starts can arrive out of step.
  await page.keyboard.insertText("const typedOffline = 1;");
  await expect(editor.locator(".view-lines")).toContainText("const typedOffline = 1;");
  await screenshot(page, "public-assets-function-editor");

  baseExpect(seen.foreign).toEqual([]);
  baseExpect(seen.errors).toEqual([]);
});
