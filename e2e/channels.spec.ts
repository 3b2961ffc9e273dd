import { expect as baseExpect, test, type APIRequestContext, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn } from "./support/auth";

/**
 * Channels end to end: connect a dedicated channel through the dialog (the server's field errors land
 * under the right inputs first), then on the demo project's Channels page switch its routing to NONE
 * and see the routing warning change on its card at once, then to FLOWS, where its project has no
 * automation to answer with (e2e/routing.spec.ts has the rest of the routing story).
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
// The suite shares one server (and, on a busy machine, two cores): allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

async function demoProjectId(request: APIRequestContext): Promise<string> {
  const identity = await request.get("/api/v1/identity", { headers: auth });
  expect(identity.ok()).toBe(true);
  return ((await identity.json()) as { project: { id: string } }).project.id;
}

/**
 * A project of the demo organization for this run. The first dedicated channel a project connects
 * becomes its own number (and what it sends from), so connecting it to the shared demo project would
 * change what every other spec sends through. The demo project still lists the channel: channels
 * belong to the organization.
 */
async function createProject(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post("/api/v1/projects", { headers: auth, data: { name } });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { id: string }).id;
}

/** Before a full-page screenshot: no toast over the cards, and scrolled to the top so sticky bars sit where they belong. */
async function cleanView(page: Page) {
  const dismiss = page.getByRole("button", { name: "Dismiss notification" });
  while ((await dismiss.count()) > 0)
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  await page.evaluate(() => window.scrollTo(0, 0));
}

function channelCard(page: Page, name: string) {
  return page.getByRole("region", { name, exact: true });
}

test("connect a channel, then a routing switch changes its routing warning", async ({ page, request, consoleErrors }) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  const displayName = `Support line ${run}`;
  const demoId = await demoProjectId(request);
  const ownerProjectId = await createProject(request, `Channels e2e ${run}`);

  await signIn(page);
  await page.goto(`/projects/${ownerProjectId}/channels`);
  await expect(page.getByRole("heading", { name: "Channels", level: 1 })).toBeVisible();
  // The shared sandbox is listed and explains why its routing cannot be switched here.
  const sandbox = channelCard(page, "svc Sandbox");
  await expect(sandbox).toContainText("can't be set");
  await expect(sandbox.getByRole("radio")).toHaveCount(0);

  // 1. Connect: the server's validation shows under the inputs it is about (its 400 is in the browser's log).
  consoleErrors.allowFailedResource(400, new RegExp(`/api/dashboard/projects/${ownerProjectId}/channels$`));
  await page.getByRole("button", { name: "Connect a channel" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Connect a channel" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Platform")).toContainText("Business messaging (PLATFORM_A)");
  await expect(dialog.getByLabel("Platform")).toContainText("Photo-sharing DMs (PLATFORM_B)");
  await dialog.getByLabel("Phone number", { exact: true }).fill("555-0100");
  await dialog.getByLabel("Phone number ID").fill("not an id!");
  await dialog.getByRole("button", { name: "Connect channel" }).click();
  await expect(dialog.getByLabel("Phone number", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("Expected E.164");
  await expect(dialog.getByLabel("Phone number ID")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("Expected the provider's id");
  await expect(dialog.getByLabel("Access token")).toHaveAttribute("type", "password");
  await expect(dialog.getByLabel("Access token")).toHaveAttribute("aria-invalid", "true");
  await screenshot(page, "channels-connect-dialog-errors");

  await dialog.getByLabel("Display name").fill(displayName);
  await dialog.getByLabel("Phone number", { exact: true }).fill(`+1415${String(Date.now()).slice(-7)}`);
  await dialog.getByLabel("Phone number ID").fill(`pn_${run}`);
  await dialog.getByLabel("Business account ID").fill(`waba_${run}`);
  await dialog.getByLabel("Access token").fill("e2e-access-token");
  await screenshot(page, "channels-connect-dialog");
  await dialog.getByRole("button", { name: "Connect channel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Notifications" })).toContainText(`${displayName} is connected`);

  const ownCard = channelCard(page, displayName);
  await expect(ownCard).toBeVisible();
  await expect(ownCard).toContainText("This project's number");
  await expect(ownCard).toContainText("Dedicated");
  // The platform reads as what it is for, the API's code beside it as secondary text (issue 32 item 12).
  const platform = ownCard.locator('[data-platform="PLATFORM_A"]');
  await expect(platform).toContainText("Business messaging");
  await expect(platform).toContainText("PLATFORM_A");
  await expect(sandbox.locator('[data-platform="PLATFORM_A"]')).toContainText("Business messaging");
  await expect(ownCard.getByRole("radio", { name: "EXTERNAL" })).toBeChecked();
  // A fresh project has no webhook URL, so EXTERNAL routing already warns.
  await expect(ownCard.getByTestId("routing-warning")).toContainText("has no webhook_url");
  // Publish readiness from the provider's account statuses (the simulator's number is in good standing).
  await expect(ownCard).toContainText("Templates can be submitted: yes");
  await expect(ownCard).toContainText("Flows can be published: yes");

  // 2. On the demo project's page (the organization's channels are listed there too): NONE warns.
  await page.goto(`/projects/${demoId}/channels`);
  const card = channelCard(page, displayName);
  await expect(card).toBeVisible();
  await card.getByRole("radio", { name: "NONE" }).check();
  const warning = card.getByTestId("routing-warning");
  await expect(warning).toContainText("This channel routes NONE. Inbound messages are recorded only");
  await expect(card.getByRole("radio", { name: "NONE" })).toBeChecked();
  await cleanView(page);
  await screenshot(page, "channels-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(warning).toBeVisible();
  await cleanView(page);
  await screenshot(page, "channels-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  // 3. FLOWS, but its project has no automation: nothing would answer, so it warns (issue 32 item 6).
  await card.getByRole("radio", { name: "FLOWS" }).check();
  await expect(card.getByRole("radio", { name: "FLOWS" })).toBeChecked();
  await expect(warning).toContainText("has no active automation");

  // 4. And it persists: the server says the same after a reload.
  await page.reload();
  await expect(channelCard(page, displayName).getByRole("radio", { name: "FLOWS" })).toBeChecked();
  await expect(channelCard(page, displayName).getByTestId("routing-warning")).toContainText("has no active automation");
});

test("disconnect a channel from its card: confirm, then it shows disconnected and can no longer be disconnected", async ({ page, request }) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  const displayName = `Old line ${run}`;
  const projectId = await createProject(request, `Disconnect e2e ${run}`);

  await signIn(page);
  await page.goto(`/projects/${projectId}/channels`);
  // The shared sandbox has no Disconnect action.
  await expect(channelCard(page, "svc Sandbox")).toBeVisible();
  await expect(channelCard(page, "svc Sandbox").getByRole("button", { name: "Disconnect" })).toHaveCount(0);

  await page.getByRole("button", { name: "Connect a channel" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Connect a channel" });
  await dialog.getByLabel("Display name").fill(displayName);
  await dialog.getByLabel("Phone number", { exact: true }).fill(`+1415${String(Date.now() + 1).slice(-7)}`);
  await dialog.getByLabel("Phone number ID").fill(`pn_old_${run}`);
  await dialog.getByLabel("Business account ID").fill(`waba_old_${run}`);
  await dialog.getByLabel("Access token").fill("e2e-access-token");
  await dialog.getByRole("button", { name: "Connect channel" }).click();
  await expect(dialog).toBeHidden();

  const card = channelCard(page, displayName);
  await expect(card).toContainText("Connected");
  // Cancel first: nothing changes.
  await card.getByRole("button", { name: "Disconnect", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: `Disconnect ${displayName}?` });
  await expect(confirm).toContainText("conversations and messages stay");
  await screenshot(page, "channels-disconnect-confirm");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toContainText("Connected");

  await card.getByRole("button", { name: "Disconnect", exact: true }).click();
  await confirm.getByRole("button", { name: "Disconnect channel" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("region", { name: "Notifications" })).toContainText(`${displayName} is disconnected`);
  await expect(card).toContainText("Disconnected");
  await expect(card.getByTestId("routing-warning")).toContainText("This channel is disconnected");
  await expect(card.getByRole("button", { name: "Disconnect", exact: true })).toHaveCount(0);

  // The server says the same after a reload.
  await page.reload();
  await expect(channelCard(page, displayName)).toContainText("Disconnected");
  await expect(channelCard(page, displayName).getByRole("button", { name: "Disconnect", exact: true })).toHaveCount(0);
  await cleanView(page);
  await screenshot(page, "channels-disconnected");
});
