import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from "../env";

export interface Credentials {
  email: string;
  password: string;
}

export const E2E_ADMIN: Credentials = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD };

/**
 * Makes next-auth load its configuration (and the runtime behind it) once before a test times a
 * sign-in: on a fresh, busy server that first request alone has taken 20 s. Call it in beforeAll.
 */
export async function warmUpAuth(request: APIRequestContext): Promise<void> {
  await request.get("/api/auth/providers", { timeout: 120_000 });
  await request.get("/api/auth/csrf", { timeout: 120_000 });
}

/** Fills the sign-in form by its labels, submits, and waits until a project page is open. */
export async function signIn(page: Page, credentials: Credentials = E2E_ADMIN): Promise<void> {
  // Already on the sign-in page (e.g. after a redirect with a callbackUrl): keep it.
  if (!new URL(page.url(), "http://x").pathname.startsWith("/sign-in")) await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(credentials.email);
  await page.getByLabel("Password", { exact: true }).fill(credentials.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/projects\//);
  await expect(page.getByRole("main")).toBeVisible();
}

/** Full-page PNG at e2e/artifacts/screenshots/<name>.png (kept across runs, unlike per-test output). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const folder = path.join(test.info().project.testDir, "artifacts", "screenshots");
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
