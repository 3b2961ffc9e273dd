import { expect, test, type APIRequestContext, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

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
  test("shows readiness and the join code, and rotates the signing secret", async ({ page, request, consoleErrors }) => {
    const projectId = await openOverview(page);
    const before = await projectFromApi(request, projectId);

    await expect(page.getByTestId("overall-status")).toHaveText(/\S/);
    const capabilities = page.getByRole("list", { name: "Capabilities" });
    for (const label of ["Sandbox messaging", "Webhook", "Your own number", "Flows publishing", "Templates"]) {
      await expect(capabilities).toContainText(label);
    }
    await expect(page.getByTestId("join-code")).toHaveText(before.join_code);
    await expect(page.getByRole("region", { name: "Sandbox" })).toContainText(`join ${before.join_code}`);

    // An invalid URL is refused by the server (a 400, in the browser's log) and the message shows under the field; nothing is saved.
    consoleErrors.allowFailedResource(400, new RegExp(`/api/dashboard/projects/${projectId}/projects/${projectId}$`));
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

  test("a viewer sees the signing secret masked, with no reveal or rotate, and the headline agrees with the rows", async ({
    page,
    browser,
    request,
    consoleErrors,
  }) => {
    // Three bcrypt passwords (two sign-ins, one accept) and a production build on a shared machine.
    test.setTimeout(180_000);
    await warmUpAuth(request);
    const run = Date.now().toString(36);
    // A project of its own: the demo project's readiness changes under the other specs. The key sees
    // only the demo project, so this one is read and changed through the owner's dashboard session.
    const created = await request.post("/api/v1/projects", { headers: auth, data: { name: `Viewer e2e ${run}` } });
    expect(created.ok(), await created.text()).toBe(true);
    const project = (await created.json()) as ProjectWire;
    await signIn(page);
    const asOwner = (path: string) => `/api/dashboard/projects/${project.id}${path}`;
    expect(project.webhook_secret).toMatch(/^whsec_/);
    const secret = project.webhook_secret!;

    // A tester joins on the shared sandbox; the project forwards inbound (EXTERNAL) but has no webhook
    // URL: sandbox messaging is testable, the webhook is blocked. The headline used to say "Blocked".
    const from = `+1555${String(Date.now() + 5_000_000).slice(-7)}`;
    const joined = await request.post("/api/simulator/customer/messages", {
      data: { platform: "PLATFORM_A", sender_id: "sandbox-phone-number-id", from, type: "text", text: `join ${project.join_code}` },
    });
    expect(joined.ok(), await joined.text()).toBe(true);
    const readiness = async () => {
      const response = await page.request.get(asOwner(`/projects/${project.id}/readiness`));
      expect(response.ok()).toBe(true);
      return (await response.json()) as { overall_status: string; capabilities: Record<string, { status: string }> };
    };
    await expect.poll(async () => (await readiness()).capabilities.sandbox_messaging!.status, { timeout: 60_000 }).toBe("testable");
    const report = await readiness();
    expect(report.capabilities.webhook!.status).toBe("blocked");
    expect(report.overall_status).toBe("testable_with_blockers");

    // The owner invites a viewer, who accepts the invitation.
    const email = `viewer-${run}@e2e.svc.test`;
    const password = "e2e-Viewer-Password-1";
    const invited = await page.request.post(asOwner("/members"), { data: { email, role: "viewer" } });
    expect(invited.ok(), await invited.text()).toBe(true);
    const token = ((await invited.json()) as { url: string }).url.split("/invite/")[1]!;
    const accepted = await request.post(`/api/dashboard/invitations/${token}/accept`, { data: { name: "E2E Viewer", password } });
    expect(accepted.ok(), await accepted.text()).toBe(true);

    const guest = await browser.newContext();
    consoleErrors.watch(guest);
    try {
      const viewer = await guest.newPage();
      await signIn(viewer, { email, password });
      await viewer.goto(`/projects/${project.id}`);
      await expect(viewer.getByRole("heading", { name: "Readiness" })).toBeVisible();

      // The headline agrees with the rows: sandbox messaging is Testable, so not "Blocked".
      const rows = viewer.getByRole("list", { name: "Capabilities" });
      await expect(rows.getByRole("listitem").filter({ hasText: "Sandbox messaging" })).toContainText("Testable");
      await expect(rows.getByRole("listitem").filter({ hasText: "Webhook" })).toContainText("Blocked");
      await expect(viewer.getByTestId("overall-status")).toHaveText("Testable, with blockers");

      // The signing secret: masked, no Show, Copy or Rotate, and never sent to the viewer's browser.
      const webhook = viewer.getByRole("region", { name: "Webhook" });
      await expect(webhook.getByTestId("withheld-secret")).toContainText("whsec_•");
      await expect(webhook).toContainText("Only developers, admins and owners can see or rotate the secret.");
      for (const name of ["Show signing secret", "Copy signing secret", "Rotate secret", "Turn on signing"]) {
        await expect(viewer.getByRole("button", { name, exact: true })).toHaveCount(0);
      }
      expect(await viewer.content()).not.toContain(secret);
      const asViewer = await viewer.request.get(`/api/dashboard/projects/${project.id}/projects/${project.id}`);
      expect(asViewer.ok()).toBe(true);
      expect(await asViewer.json()).toMatchObject({ webhook_signing_enabled: true, webhook_secret: null });
      await screenshot(viewer, "overview-viewer");

      // The webhooks page's endpoint card: masked too, and no way to change the endpoint.
      const patched = await page.request.patch(asOwner(`/projects/${project.id}`), { data: { webhook_url: "http://127.0.0.1:9/viewer-e2e" } });
      expect(patched.ok(), await patched.text()).toBe(true);
      await viewer.goto(`/projects/${project.id}/webhooks`);
      await expect(viewer.getByText("Webhook endpoint", { exact: true })).toBeVisible();
      await expect(viewer.getByTestId("withheld-secret")).toContainText("whsec_•");
      await expect(viewer.getByRole("link", { name: "Change on Overview" })).toHaveCount(0);
      await expect(viewer.getByRole("button", { name: "Show signing secret", exact: true })).toHaveCount(0);
      expect(await viewer.content()).not.toContain(secret);
    } finally {
      await guest.close();
    }

    // The owner still reveals and rotates it.
    await page.goto(`/projects/${project.id}`);
    const ownerWebhook = page.getByRole("region", { name: "Webhook" });
    await ownerWebhook.getByRole("button", { name: "Show signing secret", exact: true }).click();
    await expect(ownerWebhook.locator("code").filter({ hasText: /^whsec_/ })).toHaveText(secret);
    await expect(ownerWebhook.getByRole("button", { name: "Rotate secret", exact: true })).toBeVisible();
  });
});
