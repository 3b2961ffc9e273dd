import { E2E_KEY } from "./env";
import { signIn, warmUpAuth } from "./support/auth";
import { expect, test, type Page } from "./support/test";

/**
 * A page behind a Suspense boundary (webhooks, inbox, audit: they read the URL's query) hydrates on its
 * own, once its code has arrived. When the shell's GET /api/dashboard/me answers first, the page must
 * still hydrate to what the server rendered (no role yet), then show the role's buttons: it used to
 * render them during hydration and React threw #418 on the Webhooks page. Holding back the page's own
 * script until /me has answered makes that order certain instead of a matter of luck.
 */

test.beforeAll(async ({ request }) => {
  test.setTimeout(150_000);
  await warmUpAuth(request);
});

/** Holds every script chunk that contains `marker` until /api/dashboard/me has answered; returns how many it held. */
async function holdPageCodeUntilMe(page: Page, marker: string): Promise<{ held: string[] }> {
  let meAnswered: () => void = () => undefined;
  const me = new Promise<void>((resolve) => (meAnswered = resolve));
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/dashboard/me") meAnswered();
  });
  const held: string[] = [];
  await page.route("**/_next/static/chunks/*.js", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes(marker)) {
      held.push(route.request().url());
      await me;
    }
    await route.fulfill({ response, body });
  });
  return { held };
}

test("the Webhooks page hydrates without React #418 when /me answers before the page's code", async ({ page, request }) => {
  const identity = await request.get("/api/v1/identity", { headers: { Authorization: `Bearer ${E2E_KEY}` } });
  expect(identity.ok()).toBe(true);
  const projectId = ((await identity.json()) as { project: { id: string } }).project.id;
  await signIn(page);

  const { held } = await holdPageCodeUntilMe(page, "Replay events");
  await page.goto(`/projects/${projectId}/webhooks`);
  // The owner's button appears once hydration is done; the fixture fails the test on any page error (#418).
  await expect(page.getByRole("button", { name: "Replay events" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Deliveries", exact: true })).toBeVisible();
  expect(held.length, "the page's own script was held back until /me answered").toBeGreaterThan(0);
});
