import { expect, test } from "./support/test";
import { E2E_ADMIN_EMAIL } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  await warmUpAuth(request);
});

test.describe("signing in", () => {
  test("a wrong password shows the error and stays on the sign-in page", async ({ page, consoleErrors }) => {
    test.slow();
    // next-auth answers the wrong password with a 401, which the browser logs.
    consoleErrors.allowFailedResource(401, /\/api\/auth\/callback\/credentials$/);
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await screenshot(page, "sign-in");

    await page.getByLabel("Email", { exact: true }).fill(E2E_ADMIN_EMAIL);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password-1");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    // Filtered: Next's route announcer is also role=alert. bcrypt (cost 12) on a busy machine is slow.
    await expect(page.getByRole("alert").filter({ hasText: "Email or password is incorrect" })).toBeVisible({ timeout: 25_000 });
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
  });

  test("the admin reaches the project overview", async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/projects\/[^/?#]+$/);
    const nav = page.getByRole("navigation", { name: "Project" });
    await expect(nav.getByRole("link", { name: "Overview", exact: true })).toHaveAttribute("aria-current", "page");
    for (const name of ["Inbox", "Channels", "Webhooks", "API keys", "Sandbox phone", "Members"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
  });

  test("the project switcher lists the demo project", async ({ page }) => {
    await signIn(page);
    await page.getByRole("button", { name: /Switch project/ }).click();
    const list = page.getByRole("listbox", { name: "Projects" });
    await expect(list).toBeFocused();
    await expect(list.getByRole("option", { name: "Demo project" })).toBeVisible();
    await expect(list.getByRole("group", { name: "Demo organization" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(list).toBeHidden();
  });

  test("sign out returns to the sign-in page", async ({ page }) => {
    await signIn(page);
    await page.getByRole("button", { name: /Account menu/ }).click();
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/sign-in/);
    // The session is gone: the dashboard sends us back again.
    await page.goto("/projects/anything");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  });

  test("an unauthenticated visit to a project page redirects to sign-in", async ({ page }) => {
    await page.goto("/projects/x");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fprojects%2Fx$/);
    await expect(page.getByLabel("Email", { exact: true })).toBeVisible();
  });
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the sidebar folds into a top bar with a menu", async ({ page }) => {
    await signIn(page);
    const menuButton = page.getByRole("button", { name: "Open navigation" });
    await expect(menuButton).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Project" })).toBeHidden();
    await screenshot(page, "shell-phone");

    await menuButton.click();
    const sheet = page.getByRole("dialog", { name: "Navigation" });
    await expect(sheet).toBeVisible();
    await screenshot(page, "shell-phone-menu");
    await sheet.getByRole("link", { name: "Members", exact: true }).click();
    await expect(page).toHaveURL(/\/projects\/[^/]+\/members$/);
    await expect(sheet).toBeHidden();

    await menuButton.click();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Navigation" })).toBeHidden();
    await expect(menuButton).toBeFocused();
  });
});
