import path from "node:path";
import { expect, test } from "@playwright/test";

test("home page shows the svc heading (Chromium)", async ({ page }) => {
  const errors: string[] = [];
  const missing: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // "Failed to load resource" names its URL only in the location: the browser's own /favicon.ico
    // request (the app ships no icon yet) is tolerated, any other failing asset is a broken page.
    const url = message.location().url;
    if (message.text().startsWith("Failed to load resource") && url && new URL(url).pathname === "/favicon.ico") return;
    errors.push(`${message.text()}${url ? ` (${url})` : ""}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) missing.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });

  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("svc");
  await expect(page.getByRole("heading", { level: 1, name: "svc", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "OpenAPI 3.1 description" })).toHaveAttribute("href", "/api/v1/openapi.json");
  // Tailwind's stylesheet is applied (the layout's bg-slate-50 body), i.e. CSS assets were served.
  await expect(page.locator("body")).toHaveCSS("background-color", /^(rgb|oklch|lab|color)\(/);
  // e2e/artifacts/home.png (testDir is e2e/), kept across runs unlike the per-test output folder.
  await page.screenshot({ path: path.join(test.info().project.testDir, "artifacts", "home.png"), fullPage: true });

  expect(errors).toEqual([]);
  expect(missing.filter((entry) => entry !== "404 /favicon.ico")).toEqual([]);
});
