import { expect, test } from "./support/test";
import { screenshot, warmUpAuth } from "./support/auth";

test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  await warmUpAuth(request);
});

test("a signed-out visit to / lands on sign-in, fully styled, with no failing asset or script error", async ({ page }) => {
  // The shared fixture fails the test on any script or console error.
  const failing: string[] = [];
  page.on("response", (response) => {
    // The dashboard calls answer 401 while signed out on purpose; any other failing request is a broken page.
    const url = new URL(response.url());
    if (response.status() >= 400 && !url.pathname.startsWith("/api/dashboard/")) failing.push(`${response.status()} ${url.pathname}`);
  });

  await page.goto("/");
  await page.waitForURL(/\/sign-in/);
  await expect(page).toHaveTitle(/svc/);
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
  // Tailwind's stylesheet is applied (the layout's body background), i.e. CSS assets were served.
  await expect(page.locator("body")).toHaveCSS("background-color", /^(rgb|oklch|lab|color)\(/);
  await screenshot(page, "home-signed-out");

  expect(failing).toEqual([]);
});
