import { expect, test, type APIRequestContext, type Locator, type Page } from "./support/test";
import { E2E_ADMIN_EMAIL, E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

/**
 * The Audit log page. Real actions on the demo project (the e2e key belongs to it): a key created and
 * revoked on the Keys page and the signing secret rotated on the Overview, as the signed-in admin, then
 * a config applied and a function secret set with the e2e key through the API. The log must say each in
 * words with its actor and linked target, newest first, never a secret, and narrow to one action, one
 * target type or one actor, each filter a step Back undoes.
 *
 * Other specs act on the demo project at the same time (keys, the signing secret), so entries are found
 * by their ids and targets, and only the relative order of this spec's own entries is asserted.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
/** How svc shows a key it never shows again (lib/domain/keys): prefix, ellipsis, last four. */
const displayOf = (value: string) => `${value.slice(0, 13)}…${value.slice(-4)}`;

interface AuditEntry {
  id: string;
  actor: { type: string; id: string | null; display: string };
  action: string;
  target: { type: string; id: string | null };
  created_at: string;
}

interface ExportedConfig {
  project_id: string;
  flows: unknown[];
  automations: unknown[];
}

/** The newest entry of one action, as the API (with the e2e key) sees it. */
async function newestEntry(request: APIRequestContext, action: string): Promise<AuditEntry> {
  const response = await request.get(`/api/v1/audit-events?action=${action}&limit=1`, { headers: auth });
  expect(response.status(), await response.text()).toBe(200);
  const list = (await response.json()) as { data: AuditEntry[] };
  expect(list.data).toHaveLength(1);
  return list.data[0]!;
}

async function createAndRevokeKey(page: Page, projectId: string, name: string): Promise<{ id: string; value: string }> {
  await page.goto(`/projects/${projectId}/keys`);
  await page.getByRole("button", { name: "Create key", exact: true }).click();
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Send only", exact: true }).click();
  await form.getByRole("button", { name: "Create key", exact: true }).click();
  const once = page.getByRole("dialog", { name: "Copy your new key" });
  const value = ((await once.getByTestId("new-key-value").textContent()) ?? "").trim();
  expect(value).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
  await once.getByRole("button", { name: "Done", exact: true }).click();

  const row = page.getByRole("row").filter({ hasText: name });
  const id = await row.getAttribute("data-key-id");
  expect(id).toBeTruthy();
  await row.getByRole("button", { name: `Revoke ${name}`, exact: true }).click();
  await page
    .getByRole("dialog", { name: `Revoke ${name} (${displayOf(value)})?` })
    .getByRole("button", { name: "Revoke key", exact: true })
    .click();
  await expect(row).toContainText("Revoked");
  return { id: id!, value };
}

/** Rotates the signing secret on the Overview (or turns signing on) and returns the new secret. */
async function rotateSigningSecret(page: Page, projectId: string): Promise<string> {
  await page.goto(`/projects/${projectId}`);
  const webhook = page.getByRole("region", { name: "Webhook" });
  const button = webhook.getByRole("button", { name: /^(Rotate secret|Turn on signing)$/ });
  const label = ((await button.textContent()) ?? "").trim();
  await button.click();
  await page
    .getByRole("dialog", { name: /^(Rotate the signing secret|Turn on webhook signing)\?$/ })
    .getByRole("button", { name: label, exact: true })
    .click();
  await expect(page.getByRole("region", { name: "Notifications" })).toContainText(/Signing secret rotated|Signing turned on/);
  const secret = webhook.locator("code").filter({ hasText: /^whsec_/ });
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/=_-]+$/);
  return ((await secret.textContent()) ?? "").trim();
}

/** The ids of the listed entries in page order, and their times. */
async function listed(table: Locator): Promise<Array<{ id: string; action: string; at: string }>> {
  return table.locator("tr[data-audit-id]").evaluateAll((rows) =>
    rows.map((row) => ({
      id: row.getAttribute("data-audit-id") ?? "",
      action: row.getAttribute("data-action") ?? "",
      at: row.querySelector("time")?.getAttribute("datetime") ?? "",
    })),
  );
}

function expectNewestFirst(entries: Array<{ at: string }>) {
  const times = entries.map((entry) => Date.parse(entry.at));
  expect(times.every((time) => !Number.isNaN(time))).toBe(true);
  expect(times).toEqual([...times].sort((a, b) => b - a));
}

test("the audit log shows who created and revoked a key, rotated the secret and applied config, newest first, and filters", async ({ page, request }) => {
  // Sign-in (bcrypt), two dialogs, an apply and several list loads on a busy machine with a production build.
  test.setTimeout(180_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const keyName = `audit e2e ${run}`;

  // The project the e2e key belongs to, and what it holds: applying its own export back changes nothing,
  // so the demo project the other specs use stays as it is.
  const exported = await request.get("/api/v1/config", { headers: auth });
  expect(exported.status(), await exported.text()).toBe(200);
  const config = (await exported.json()) as ExportedConfig;
  const projectId = config.project_id;

  await signIn(page);
  const key = await createAndRevokeKey(page, projectId, keyName);
  const secret = await rotateSigningSecret(page, projectId);
  const rotated = await newestEntry(request, "project.webhook_secret_rotated");

  const applied = await request.post("/api/v1/config/apply", { headers: auth, data: { version: 1, flows: config.flows, automations: config.automations } });
  expect(applied.status(), await applied.text()).toBe(200);
  expect(((await applied.json()) as { diff: Array<{ action: string }> }).diff.every((item) => item.action === "unchanged")).toBe(true);
  const apply = await newestEntry(request, "config.applied");
  expect(apply.actor.type).toBe("api_key");
  const e2eKeyId = apply.actor.id!;
  const e2eKeyDisplay = `Bootstrap key (${displayOf(E2E_KEY)})`;

  await test.step("each action is listed with its actor, words and target, newest first", async () => {
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Audit log", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    const table = page.getByRole("region", { name: "Audit log entries" });
    const createdRow = table.locator(`tr[data-action="api_key.created"][data-target-id="${key.id}"]`);
    const revokedRow = table.locator(`tr[data-action="api_key.revoked"][data-target-id="${key.id}"]`);
    const rotatedRow = table.locator(`tr[data-audit-id="${rotated.id}"]`);
    const appliedRow = table.locator(`tr[data-audit-id="${apply.id}"]`);

    await expect(createdRow).toContainText("Created API key");
    await expect(createdRow).toContainText(E2E_ADMIN_EMAIL);
    await expect(createdRow).toContainText("Operator");
    await expect(createdRow.getByRole("link", { name: keyName, exact: true })).toHaveAttribute("href", `/projects/${projectId}/keys`);
    await expect(createdRow).toContainText(key.id);

    await expect(revokedRow).toContainText("Revoked API key");
    await expect(revokedRow).toContainText(E2E_ADMIN_EMAIL);
    await expect(revokedRow.getByRole("link", { name: keyName, exact: true })).toBeVisible();

    await expect(rotatedRow).toContainText("Rotated webhook secret");
    await expect(rotatedRow).toContainText(E2E_ADMIN_EMAIL);
    await expect(rotatedRow.getByRole("link", { name: "webhook signing secret", exact: true })).toHaveAttribute("href", `/projects/${projectId}`);
    await expect(rotatedRow.locator("[data-sentence]")).toHaveAttribute("data-sentence", `${E2E_ADMIN_EMAIL} rotated the webhook signing secret`);

    await expect(appliedRow).toContainText("Applied config");
    await expect(appliedRow).toContainText(e2eKeyDisplay);
    await expect(appliedRow).toContainText("API key");
    await expect(appliedRow).not.toContainText(E2E_ADMIN_EMAIL);
    await expect(appliedRow.getByRole("link", { name: "config", exact: true })).toHaveAttribute("href", `/projects/${projectId}/config`);

    const entries = await listed(table);
    const position = (id: string) => entries.findIndex((entry) => entry.id === id);
    const createdId = await createdRow.getAttribute("data-audit-id");
    const revokedId = await revokedRow.getAttribute("data-audit-id");
    expect(position(apply.id)).toBeLessThan(position(rotated.id));
    expect(position(rotated.id)).toBeLessThan(position(revokedId!));
    expect(position(revokedId!)).toBeLessThan(position(createdId!));
    expectNewestFirst(entries);

    // The created key's details: what it could do and how to recognise it, never its value.
    await createdRow.getByRole("button", { name: /^Details of Created API key/ }).click();
    const details = page.getByRole("region", { name: `Details of ${createdId}` });
    await expect(details).toContainText('"scopes"');
    await expect(details).toContainText('"messages:send"');
    await expect(details).toContainText(displayOf(key.value));
    // Toasts from the Keys and Overview pages outlive the page change: let them go before the screenshot.
    await expect(page.getByRole("button", { name: "Dismiss notification" })).toHaveCount(0, { timeout: 15_000 });
    await screenshot(page, "audit-log");

    const html = await page.content();
    for (const value of [key.value, secret, E2E_KEY]) expect(html).not.toContain(value);
  });

  await test.step("filtering by action leaves only that action", async () => {
    const table = page.getByRole("region", { name: "Audit log entries" });
    await page.getByLabel("Action", { exact: true }).selectOption({ label: "Revoked API key" });
    await expect(page).toHaveURL(/[?&]action=api_key\.revoked/);
    await expect(table.locator(`tr[data-action="api_key.revoked"][data-target-id="${key.id}"]`)).toBeVisible();
    await expect(table.locator('tr[data-audit-id]:not([data-action="api_key.revoked"])')).toHaveCount(0);
    await expect(table.locator(`tr[data-audit-id="${apply.id}"]`)).toHaveCount(0);
  });

  await test.step("filtering by actor leaves only that actor's entries", async () => {
    const table = page.getByRole("region", { name: "Audit log entries" });
    await page.getByLabel("Action", { exact: true }).selectOption({ label: "All actions" });
    await page.getByLabel("Actor", { exact: true }).selectOption({ value: e2eKeyId });
    await expect(page).toHaveURL(new RegExp(`[?&]actor=${e2eKeyId}`));
    await expect(page).not.toHaveURL(/[?&]action=/);
    await expect(table.locator(`tr[data-audit-id="${apply.id}"]`)).toBeVisible();
    await expect(table.locator('tr[data-audit-id]:not([data-actor-type="api_key"])')).toHaveCount(0);
    await expect(table.locator("tr[data-audit-id]").filter({ hasNotText: e2eKeyDisplay })).toHaveCount(0);
    await expect(table.locator(`tr[data-audit-id="${rotated.id}"]`)).toHaveCount(0);

    await page.getByRole("button", { name: "Clear filters", exact: true }).first().click();
    await expect(page).not.toHaveURL(/[?&](actor|action)=/);
    await expect(table.locator(`tr[data-audit-id="${rotated.id}"]`)).toBeVisible();
  });

  await test.step("a function secret set through the API reads as a sentence, and the filters narrow to it (Back restores the previous filter)", async () => {
    const slug = `audit-e2e-${run}`;
    const created = await request.post("/api/v1/functions", { headers: auth, data: { slug, name: slug, trigger_type: "KEYWORD" } });
    expect(created.status(), await created.text()).toBe(200);
    const fnId = ((await created.json()) as { id: string }).id;
    const secretValue = `sk_live_e2e_${run}_do_not_show`;
    const put = await request.put(`/api/v1/functions/${fnId}/secrets`, { headers: auth, data: { STRIPE_KEY: secretValue } });
    expect(put.status(), await put.text()).toBe(200);

    await page.goto(`/projects/${projectId}/audit`);
    const table = page.getByRole("region", { name: "Audit log entries" });
    const row = table.locator(`tr[data-action="function.secret_set"][data-target-id="${fnId}"]`);
    await expect(row.locator("[data-sentence]")).toHaveAttribute("data-sentence", `${e2eKeyDisplay} added the secret STRIPE_KEY to function ${slug}`);
    await expect(row.getByRole("link", { name: slug, exact: true })).toHaveAttribute("href", `/projects/${projectId}/functions/${fnId}`);

    await page.getByLabel("Action", { exact: true }).selectOption({ label: "Set a function secret" });
    await expect(page).toHaveURL(/[?&]action=function\.secret_set/);
    await page.getByLabel("Target", { exact: true }).selectOption({ label: "Function" });
    await expect(page).toHaveURL(/[?&]target=function/);
    await expect(row).toBeVisible();
    await expect(table.locator('tr[data-audit-id]:not([data-action="function.secret_set"])')).toHaveCount(0);
    await expect(table.locator(`tr[data-audit-id="${apply.id}"]`)).toHaveCount(0);
    await screenshot(page, "audit-log-filtered");

    // Back undoes the last filter, not the whole page.
    await page.goBack();
    await expect(page).toHaveURL(/[?&]action=function\.secret_set/);
    await expect(page).not.toHaveURL(/[?&]target=/);
    await expect(page.getByLabel("Target", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Action", { exact: true })).toHaveValue("function.secret_set");
    expect(await page.content()).not.toContain(secretValue);

    await page.getByRole("button", { name: "Clear filters", exact: true }).first().click();
    await expect(page).not.toHaveURL(/[?&](target|action)=/);
    // The demo project keeps no leftover function; its entries stay in the log.
    expect((await request.delete(`/api/v1/functions/${fnId}`, { headers: auth })).status()).toBe(200);
  });

  await test.step("Load more continues after the last entry shown", async () => {
    // Pages of two (the real server pages them), so this spec's own four entries span several pages.
    await page.route(/\/api\/dashboard\/projects\/[^/]+\/audit-events\?/, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set("limit", "2");
      return route.continue({ url: url.toString() });
    });
    await page.reload();
    const table = page.getByRole("region", { name: "Audit log entries" });
    await expect(table.locator("tr[data-audit-id]")).toHaveCount(2);
    const first = await listed(table);
    await page.getByRole("button", { name: "Load more", exact: true }).click();
    await expect(table.locator("tr[data-audit-id]")).toHaveCount(4);
    const both = await listed(table);
    expect(both.slice(0, 2)).toEqual(first);
    expect(new Set(both.map((entry) => entry.id)).size).toBe(4);
    expectNewestFirst(both);
    await page.unroute(/\/api\/dashboard\/projects\/[^/]+\/audit-events\?/);
  });

  await test.step("on a phone the entries stack, with the same facts", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/projects/${projectId}/audit?action=config.applied`);
    const list = page.getByRole("list", { name: "Audit log entries" });
    await expect(list).toBeVisible();
    await expect(list.locator(`li[data-audit-id="${apply.id}"]`)).toContainText(e2eKeyDisplay);
    await screenshot(page, "audit-log-390");
  });
});
