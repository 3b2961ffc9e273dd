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
  await page.getByTestId("function-code-editor").locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Control+v");
  await expect(page.getByTestId("function-code-editor").locator(".view-lines")).toContainText(code.split("\n")[0]!.slice(0, 30));
}

async function deploy(page: Page, expected: "ok" | "error") {
  await page.getByTestId("function-deploy").click();
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
    await page.keyboard.type("const = 1;");
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
