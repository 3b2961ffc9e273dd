import { expect, test, type BrowserContext, type Page } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

/**
 * /docs/api: the interactive API reference rendered from the served OpenAPI document by the bundled
 * renderer, under its strict CSP, loading nothing from any other origin.
 */

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
}

/**
 * Every request of the context (popups included) that leaves the app's origin is recorded and
 * aborted: the page must work offline. data: and blob: URLs are the page's own bytes.
 */
async function guardOrigin(context: BrowserContext, origin: string): Promise<string[]> {
  const foreign: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("data:") || url.startsWith("blob:") || new URL(url).origin === origin) return route.continue();
    foreign.push(url);
    return route.abort("blockedbyclient");
  });
  return foreign;
}

/** Script errors and CSP refusals (Chromium reports those on the console). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}

function operationsOf(doc: { paths: Record<string, Record<string, { operationId: string; summary: string; tags: string[] }>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (op) operations.push({ method, path, operationId: op.operationId, summary: op.summary, tag: op.tags[0]! });
    }
  }
  return operations;
}

/** Swagger UI gives each operation the deep-link id operations-<tag>-<operationId>, whitespace in the tag as "_" ("Business agents"). */
const operationBlock = (page: Page, op: Operation) => page.locator(`[id="operations-${op.tag.trim().replace(/\s/g, "_")}-${op.operationId}"]`);

test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  await warmUpAuth(request);
});

test("renders every operation of the served document under a strict CSP, with nothing fetched from another origin", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const foreign = await guardOrigin(context, new URL(baseURL!).origin);
  const errors = watchErrors(page);
  const docResponse = await request.get("/api/v1/openapi.json");
  expect(docResponse.status()).toBe(200);
  const operations = operationsOf(await docResponse.json());
  expect(operations.length).toBeGreaterThan(20);

  const response = await page.goto("/docs/api");
  expect(response!.status()).toBe(200);
  const csp = response!.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'(;|$)/);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  await expect(page).toHaveTitle(/API reference/);

  // The first render is slow: loading Swagger UI's bundle (about 2 s) and reading this 1 MB OpenAPI 3.1
  // document through ApiDOM on the page's main thread took 3.3 to 7 s on an idle 2-core machine and 10
  // to 12 s beside CI's fault suite (measured 2026-12-03, README "Performance"). So the first operation
  // gets its own wait; the rest are then already drawn.
  await expect(operationBlock(page, operations[0]!), "the reference's first operation").toBeVisible({ timeout: 60_000 });
  for (const op of operations) {
    const block = operationBlock(page, op);
    await expect(block, `${op.method.toUpperCase()} ${op.path} (${op.operationId})`).toBeVisible();
    await expect(block.locator(".opblock-summary-description")).toHaveText(op.summary);
    await expect(block.locator(".opblock-summary-operation-id")).toHaveText(op.operationId);
  }

  // One operation opened: its scope, its request examples, its error codes and their examples.
  const send = operationBlock(
    page,
    operations.find((op) => op.operationId === "sendMessage")!,
  );
  await send.locator(".opblock-summary-control").click();
  await expect(send.getByText("Requires scope messages:send").first()).toBeVisible();
  await expect(send.locator(".opblock-section-request-body").getByRole("combobox").filter({ hasText: "Text to a phone number" })).toBeVisible();
  await expect(send.locator(".opblock-section-request-body")).toContainText('"to": "+14155550199"');
  for (const status of ["200", "400", "401", "403", "409", "412", "429", "500"]) {
    await expect(send.locator(`tr.response[data-code="${status}"]`)).toBeVisible();
  }
  await expect(
    send.locator(`tr.response[data-code="409"]`).getByRole("combobox").filter({ hasText: "Free-form message outside the 24 h window" }),
  ).toBeVisible();
  await expect(send.locator(`tr.response[data-code="403"]`)).toContainText('"required_scope": "messages:send"');
  await screenshot(page, "api-reference");

  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test("the dashboard's API reference link opens the reference", async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const foreign = await guardOrigin(context, new URL(baseURL!).origin);
  await signIn(page);
  const link = page.getByRole("link", { name: /^API reference/ }).first();
  await expect(link).toHaveAttribute("href", "/docs/api");
  const [reference] = await Promise.all([context.waitForEvent("page"), link.click()]);
  await reference.waitForLoadState();
  expect(new URL(reference.url()).pathname).toBe("/docs/api");
  // As above: the first render of the reference takes seconds of the page's CPU.
  await expect(reference.locator('[id="operations-Messages-sendMessage"]')).toBeVisible({ timeout: 60_000 });
  expect(foreign).toEqual([]);
});
