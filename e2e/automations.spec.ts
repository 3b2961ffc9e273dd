import { expect as baseExpect, test, type Locator, type Page } from "./support/test";
import { parse } from "yaml";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * Automations end to end. (1) With routing FLOWS, a keyword automation uploaded on the Config page
 * (diff, then apply) answers the sandbox tester with two reply buttons; its run waits at the
 * wait_reply step on the Automations page, and completes when the tester taps a button. (2) With
 * routing EXTERNAL, the diff warns that automations will not fire and the Automations page says so.
 */

// A production build on a shared machine, and replies that go through the job queue: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The config document: one keyword automation (a reply with two buttons, then a wait for the answer). */
function configYaml(run: string): string {
  return [
    "version: 1",
    "flows: []",
    "automations:",
    `  - key: greet_${run}`,
    `    name: Greeting ${run}`,
    "    trigger:",
    "      type: KEYWORD",
    "      match_mode: CONTAINS_WORD",
    `      keywords: [hola${run}]`,
    "    steps:",
    "      - send_reply:",
    '          text: "Hi {{contact.name}}! Coffee or tea?"',
    "          buttons:",
    "            - { id: coffee, title: Coffee }",
    "            - { id: tea, title: Tea }",
    "      - wait_reply:",
    "          timeout_hours: 24",
    "          options:",
    "            - { id: coffee, label: Coffee }",
    "            - { id: tea, label: Tea }",
    "",
  ].join("\n");
}

/** Upload on the Config page, read the diff (one automation to create, no errors), apply. */
async function uploadAndApply(page: Page, projectId: string, file: { name: string; mimeType: string; text: string }, automationKey: string) {
  await page.goto(`/projects/${projectId}/config`);
  await expect(page.getByRole("heading", { name: "Config", level: 1 })).toBeVisible();
  await page.getByLabel("Config file to upload").setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: Buffer.from(file.text) });
  const changes = page.getByRole("region", { name: "Changes" });
  await expect(changes).toContainText("1 to create");
  await expect(changes.locator('[data-diff-action="create"]')).toContainText(automationKey);
  await expect(changes.locator('[data-issue-severity="error"]')).toHaveCount(0);
  return changes;
}

async function apply(page: Page, changes: Locator) {
  await changes.getByRole("button", { name: "Apply", exact: true }).click();
  const applied = page.getByRole("region", { name: "Applied" });
  await expect(applied).toContainText("1 created");
  return applied;
}

test("a keyword automation applied from the Config page answers on the sandbox phone; its run waits, then completes", async ({ page, request }) => {
  test.setTimeout(300_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  // Unique per run (+1555 and 7 digits of the clock, offset from the other specs' numbers).
  const from = `+1555${String(Date.now() + 8_000_000).slice(-7)}`;
  const project = await ownProject(request, `Automations e2e ${run}`);
  const name = `Greeting ${run}`;
  await signIn(page);

  // 1. Routing FLOWS, as an operator sets it on the Overview.
  await page.goto(`/projects/${project.id}`);
  await page.getByRole("radio", { name: /^Flows/ }).check();
  await expect(page.getByText("Routing set to Flows")).toBeVisible();

  // 2. Upload the config on the Config page, read the diff, apply.
  const changes = await uploadAndApply(page, project.id, { name: "config.yaml", mimeType: "application/yaml", text: configYaml(run) }, `greet_${run}`);
  await expect(changes.getByText(/will not fire/i)).toHaveCount(0);
  await screenshot(page, "config-diff-flows");
  await apply(page, changes);

  // 3. The tester joins the sandbox and writes the keyword: the automated reply arrives with its buttons.
  await page.goto(`/projects/${project.id}/sandbox`);
  const number = page.getByLabel("Customer number");
  await number.fill(from);
  await number.press("Enter");
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await expect(phone.getByText(/hasn.t joined/)).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Send join code" }).last().click();
  await expect(page.getByText("Joined", { exact: true })).toBeVisible({ timeout: 20_000 });
  await phone.getByLabel("Customer message").fill(`Hola${run} there`);
  await phone.getByRole("button", { name: "Send as customer" }).click();
  const reply = phone.getByRole("listitem", { name: "Message from the business" }).filter({ hasText: "Coffee or tea?" });
  await expect(reply).toBeVisible({ timeout: 60_000 });
  const replyButtons = reply.getByRole("group", { name: "Reply buttons" });
  await expect(replyButtons.getByRole("button", { name: "Coffee" })).toBeVisible();
  await expect(replyButtons.getByRole("button", { name: "Tea" })).toBeVisible();
  await screenshot(page, "automations-sandbox-reply");

  // 4. The Automations page draws the automation and its run, waiting at the wait_reply step.
  await page.goto(`/projects/${project.id}/automations`);
  await expect(page.getByRole("heading", { name: "Automations", level: 1 })).toBeVisible();
  const card = page.getByRole("region", { name: new RegExp(`^${name}`) });
  await expect(card).toContainText(`When a message contains the word 'hola${run}'`);
  const steps = card.getByRole("list", { name: `Steps of ${name}` }).getByRole("listitem");
  await expect(steps).toHaveCount(2);
  await expect(steps.first()).toContainText("Reply: 'Hi {{contact.name}}! Coffee or tea?' with buttons Coffee / Tea");
  await expect(steps.last()).toContainText("Wait for a reply (24 h): options Coffee / Tea");
  const runs = card.getByRole("list", { name: `Runs of ${name}` });
  await expect(runs.locator('[data-run-status="WAITING"]')).toBeVisible();
  await expect(runs).toContainText("Waiting at step 2: Wait for a reply (24 h)");
  await expect(runs.getByRole("link", { name: "Open conversation" })).toHaveAttribute("href", /\/inbox\?c=conv_/);
  await expect(page.locator("[data-routing-notice]")).toHaveCount(0);
  await screenshot(page, "automations-run-waiting");

  // 5. The tester taps a button; the run completes with the chosen option in its variables.
  await page.goto(`/projects/${project.id}/sandbox`);
  await replyButtons.getByRole("button", { name: "Coffee" }).click();
  const customerBubbles = phone.getByRole("listitem", { name: "Message from the customer" });
  await expect(customerBubbles.filter({ hasText: "Coffee" })).toContainText("Sent", { timeout: 45_000 });
  await page.goto(`/projects/${project.id}/automations`);
  await expect(runs.locator('[data-run-status="COMPLETED"]')).toBeVisible({ timeout: 45_000 });
  await expect(runs.locator('[data-run-status="WAITING"]')).toHaveCount(0);
  await runs.getByText(/^Variables/).click();
  await expect(runs).toContainText("reply_option");
  await screenshot(page, "automations-run-completed");

  // 6. The Active switch turns it off at once, and the change holds after a reload.
  const active = card.getByRole("switch", { name: "Active" });
  await expect(active).toHaveAttribute("aria-checked", "true");
  await active.click();
  await expect(active).toHaveAttribute("aria-checked", "false");
  await expect(page.getByText(`${name} is off`)).toBeVisible();
  await page.reload();
  await expect(card.getByRole("switch", { name: "Active" })).toHaveAttribute("aria-checked", "false");
});

test("with routing EXTERNAL the diff warns that automations will not fire, and the Automations page says so", async ({ page, request }) => {
  test.setTimeout(180_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Automations external e2e ${run}`);
  await signIn(page);
  const patched = await page.request.patch(`/api/dashboard/projects/${project.id}/projects/${project.id}`, { data: { routing_mode: "EXTERNAL" } });
  expect(patched.ok(), await patched.text()).toBe(true);

  // The same document as JSON this time (the page reads both).
  const json = JSON.stringify(parse(configYaml(run)), null, 2);
  const changes = await uploadAndApply(page, project.id, { name: "config.json", mimeType: "application/json", text: json }, `greet_${run}`);
  await expect(changes.locator('[data-issue-severity="warning"]')).toContainText(/will not fire/i);
  await screenshot(page, "config-diff-external-warning");
  const applied = await apply(page, changes);
  await expect(applied.locator('[data-issue-severity="warning"]')).toContainText(/will not fire/i);

  // The export downloads as config.yaml.
  const download = page.waitForEvent("download");
  await page.getByRole("region", { name: "Current config" }).getByRole("button", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toBe("config.yaml");

  await page.goto(`/projects/${project.id}/automations`);
  await expect(page.locator('[data-routing-notice="warning"]')).toContainText("Automations are stored but will not fire while routing is EXTERNAL");
  await expect(page.getByRole("region", { name: new RegExp(`^Greeting ${run}`) })).toContainText("No runs yet");
  await screenshot(page, "automations-external-banner");
});
