import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn } from "./support/auth";

const auth = { Authorization: `Bearer ${E2E_KEY}` };

interface ProjectWire {
  id: string;
  join_code: string;
  routing_mode: "EXTERNAL" | "FLOWS" | "AGENT";
  require_opt_in: boolean;
  webhook_secret: string | null;
}

async function projectFromApi(request: APIRequestContext, projectId: string): Promise<ProjectWire> {
  const response = await request.get(`/api/v1/projects/${projectId}`, { headers: auth });
  expect(response.status()).toBe(200);
  return (await response.json()) as ProjectWire;
}

/** Signs in (which lands on the first project's overview) and returns that project's id. */
async function openOverview(page: Page): Promise<string> {
  await signIn(page);
  const projectId = new URL(page.url()).pathname.split("/")[2]!;
  await expect(page.getByRole("heading", { name: "Readiness" })).toBeVisible();
  return projectId;
}

test.describe("project overview", () => {
  test("shows readiness and the join code, and rotates the signing secret", async ({ page, request }) => {
    const projectId = await openOverview(page);
    const before = await projectFromApi(request, projectId);

    await expect(page.getByTestId("overall-status")).toHaveText(/\S/);
    const capabilities = page.getByRole("list", { name: "Capabilities" });
    for (const label of ["Sandbox messaging", "Webhook", "Your own number", "Flows publishing", "Templates"]) {
      await expect(capabilities).toContainText(label);
    }
    await expect(page.getByTestId("join-code")).toHaveText(before.join_code);
    await expect(page.getByRole("region", { name: "Sandbox" })).toContainText(`join ${before.join_code}`);

    // An invalid URL is refused by the server and the message shows under the field; nothing is saved.
    const webhook = page.getByRole("region", { name: "Webhook" });
    const url = webhook.getByLabel("Endpoint URL", { exact: true });
    await url.fill("not a url");
    await webhook.getByRole("button", { name: "Save", exact: true }).click();
    await expect(webhook.getByRole("alert")).toContainText("http(s) URL");
    await page.reload();
    await expect(page.getByRole("heading", { name: "Readiness" })).toBeVisible();

    // Hidden by default; revealed on request.
    const secretCode = webhook.locator("code").filter({ hasText: /^whsec_/ });
    if (before.webhook_secret) {
      await expect(secretCode).not.toContainText(before.webhook_secret);
      await webhook.getByRole("button", { name: "Show signing secret", exact: true }).click();
      await expect(secretCode).toHaveText(before.webhook_secret);
    }

    await webhook.getByRole("button", { name: before.webhook_secret ? "Rotate secret" : "Turn on signing", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: before.webhook_secret ? "Rotate the signing secret?" : "Turn on webhook signing?" });
    if (before.webhook_secret) await expect(confirm).toContainText("24 hours");
    await confirm.getByRole("button", { name: before.webhook_secret ? "Rotate secret" : "Turn on signing", exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText(before.webhook_secret ? "Signing secret rotated" : "Signing turned on");

    // The new secret is shown revealed, differs from the old one, and is what the API now returns.
    await expect(secretCode).toHaveText(/^whsec_[A-Za-z0-9+/=_-]+$/);
    const rotated = ((await secretCode.textContent()) ?? "").trim();
    expect(rotated).not.toBe(before.webhook_secret);
    expect((await projectFromApi(request, projectId)).webhook_secret).toBe(rotated);

    await screenshot(page, "overview-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId("join-code")).toBeVisible();
    await screenshot(page, "overview-390");
  });

  test("routing and require opt-in save at once and persist after a reload", async ({ page, request }) => {
    const projectId = await openOverview(page);
    const original = await projectFromApi(request, projectId);
    const settings = page.getByRole("region", { name: "Settings" });
    const optIn = settings.getByRole("switch", { name: "Require opt-in" });
    const notifications = page.getByRole("region", { name: "Notifications" });
    let releaseSecond = () => {};
    const nextRouting = original.routing_mode === "FLOWS" ? "EXTERNAL" : "FLOWS";
    const label = { EXTERNAL: "External", FLOWS: "Flows", AGENT: "Agent" } as const;
    const radioName = { EXTERNAL: /^External/, FLOWS: /^Flows/, AGENT: /^Agent/ } as const;

    try {
      await expect(optIn).toHaveAttribute("aria-checked", String(original.require_opt_in));
      await optIn.click();
      await expect(optIn).toHaveAttribute("aria-checked", String(!original.require_opt_in));
      await expect(notifications).toContainText(original.require_opt_in ? "no longer required" : "now required");

      await settings.getByRole("radio", { name: radioName[nextRouting] }).check();
      await expect(notifications).toContainText("Routing set to");

      await page.reload();
      await expect(optIn).toHaveAttribute("aria-checked", String(!original.require_opt_in));
      await expect(settings.getByRole("radio", { name: radioName[nextRouting] })).toBeChecked();
      const saved = await projectFromApi(request, projectId);
      expect(saved.require_opt_in).toBe(!original.require_opt_in);
      expect(saved.routing_mode).toBe(nextRouting);

      // Put both back through the page, as an operator would: the routing first, then the switch while
      // the routing's answer is still on its way. That answer (which still has the old opt-in) must not
      // undo the switch, and the switch's own answer is held until both have been checked on screen.
      const patchUrl = `**/api/dashboard/projects/${projectId}/projects/${projectId}`;
      const originalRadio = settings.getByRole("radio", { name: radioName[original.routing_mode] });
      let patches = 0;
      const secondReleased = new Promise<void>((resolve) => (releaseSecond = resolve));
      await page.route(patchUrl, async (route) => {
        if (route.request().method() !== "PATCH") return route.fallback();
        patches += 1;
        const response = await route.fetch();
        if (patches === 1) await new Promise((resolve) => setTimeout(resolve, 300));
        else await secondReleased;
        await route.fulfill({ response });
      });
      await originalRadio.check();
      await optIn.click();
      await expect(optIn).toHaveAttribute("aria-checked", String(original.require_opt_in));
      await expect(notifications).toContainText(`Routing set to ${label[original.routing_mode]}`);
      await expect.poll(() => patches).toBe(2);
      await expect(optIn).toHaveAttribute("aria-checked", String(original.require_opt_in));
      await expect(originalRadio).toBeChecked();
      releaseSecond();
      await expect(notifications).toContainText(original.require_opt_in ? "now required" : "no longer required");
      await expect(optIn).toHaveAttribute("aria-checked", String(original.require_opt_in));
      await expect(originalRadio).toBeChecked();
      await page.unroute(patchUrl);
      await expect.poll(async () => (await projectFromApi(request, projectId)).routing_mode).toBe(original.routing_mode);
      await expect.poll(async () => (await projectFromApi(request, projectId)).require_opt_in).toBe(original.require_opt_in);
    } finally {
      releaseSecond();
      // The demo project is shared with other specs: restore it even when an assertion failed midway.
      await request.patch(`/api/v1/projects/${projectId}`, {
        headers: auth,
        data: { routing_mode: original.routing_mode, require_opt_in: original.require_opt_in },
      });
    }
  });
});
