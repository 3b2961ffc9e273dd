import fs from "node:fs";
import { expect as baseExpect, test, type Page } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * The automation builder end to end (issue 34): built entirely in the browser, "keyword `order` →
 * reply with two buttons → wait for the reply → run_function with the answer → reply with its
 * result"; tested from the sandbox phone beside the builder, whose run shows step by step; exported
 * on the Config page with the automation in it; its keyword changed in the YAML and applied; and the
 * builder then shows the new keyword (one source of truth).
 */

// A production build on a shared machine, and replies that go through the job queue: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Through the dashboard's own API as the signed-in owner. */
function dashboard(page: Page, projectId: string) {
  return async <T>(method: "GET" | "POST" | "PATCH", path: string, data?: unknown): Promise<T> => {
    const response = await page.request.fetch(`/api/dashboard/projects/${projectId}${path}`, { method, data });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
}

test("an automation built in the browser answers on the sandbox phone, runs step by step, exports to YAML, and shows a keyword changed there", async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Builder e2e ${run}`);
  await signIn(page);
  const call = dashboard(page, project.id);

  // Setup through the API: routing FLOWS, and a tiny deployed function that answers with the choice.
  await call("PATCH", `/projects/${project.id}`, { routing_mode: "FLOWS" });
  const slug = `order-answer-${run}`;
  const fn = await call<{ id: string; name: string }>("POST", "/functions", { slug, name: `Order answer ${run}`, trigger_type: "KEYWORD" });
  const deployed = await call<{ status: string }>("POST", `/functions/${fn.id}/deploy`, {
    source: [
      "export default async function (event) {",
      "  const choice = event.variables.reply_option || event.variables.reply_text;",
      "  return { text: `Order update: you chose ${choice}` };",
      "}",
      "",
    ].join("\n"),
  });
  expect(deployed.status).toBe("ok");

  // 1. The builder, from the Automations page.
  await page.goto(`/projects/${project.id}/automations`);
  await expect(page.getByRole("heading", { name: "No automations yet" })).toBeVisible();
  await page.getByRole("link", { name: "New automation" }).first().click();
  await expect(page.getByRole("heading", { name: "New automation", level: 1 })).toBeVisible();
  const name = `Order ${run}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  const key = `order-${run}`;
  await expect(page.getByLabel("Key", { exact: true })).toHaveValue(key);
  await page.getByRole("textbox", { name: "Keywords", exact: true }).fill("order");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "Keywords list" })).toContainText("order");
  await expect(page.getByText("When a message contains the word 'order'")).toBeVisible();

  // Step 1: a reply with two buttons; an empty message is flagged in place by config validate first.
  const steps = page.getByRole("list", { name: "Steps" });
  const reply = steps.getByRole("listitem", { name: "Step 1: Reply" });
  await expect(reply.getByRole("alert").first()).toContainText(/Too small|at least|character/i);
  await expect(page.locator("[data-error-count]")).toBeVisible();
  await screenshot(page, "builder-empty-reply-flagged");
  await reply.getByLabel("Message", { exact: true }).fill("Hi {{contact.name}}! Track your order or cancel it?");
  await reply.getByRole("button", { name: "Add button" }).click();
  await reply.getByLabel("Button 1 title").fill("Track");
  await reply.getByRole("button", { name: "Add button" }).click();
  await reply.getByLabel("Button 2 title").fill("Cancel");

  // Step 2: wait for the reply, its options taken from the buttons.
  const add = page.getByRole("group", { name: "Add a step" });
  await add.getByRole("button", { name: "Wait for reply", exact: true }).click();
  const wait = steps.getByRole("listitem", { name: "Step 2: Wait for reply" });
  await wait.getByRole("button", { name: "Use the buttons of step 1" }).click();
  await expect(wait.getByLabel("Option 1 label")).toHaveValue("Track");
  await expect(wait.getByLabel("Option 2 label")).toHaveValue("Cancel");
  await expect(wait).toContainText("No answer within 24 h → the run ends (timed out)");

  // Step 3: the function with the answer, its result stored in vars.status.
  await add.getByRole("button", { name: "Run function", exact: true }).click();
  const runFn = steps.getByRole("listitem", { name: "Step 3: Run function" });
  await runFn.getByLabel("Function", { exact: true }).selectOption({ label: `${fn.name} (${slug})` });
  await runFn.getByLabel("Result", { exact: true }).selectOption({ label: "Store the result in variables" });
  await runFn.getByLabel("Variable name").fill("status");

  // Step 4: reply with its result; the variables offered include what steps 2 and 3 set.
  await add.getByRole("button", { name: "Reply", exact: true }).click();
  const result = steps.getByRole("listitem", { name: "Step 4: Reply" });
  await expect(result.getByRole("button", { name: "{{vars.reply_option}}" })).toBeVisible();
  await result.getByRole("button", { name: "{{vars.status}}" }).click();
  await expect(result.getByLabel("Message", { exact: true })).toHaveValue("{{vars.status}}");
  await result.getByLabel("Message", { exact: true }).fill("{{vars.status.text}}");

  // On, checked clean, then the change as the Config page's diff before anything is written.
  await page.getByRole("switch", { name: "Active" }).click();
  await expect(page.getByText("No problems found")).toBeVisible();
  await screenshot(page, "builder-filled");
  await page.getByRole("button", { name: "Create…" }).click();
  const review = page.getByRole("dialog", { name: `Create “${name}”` });
  await expect(review.locator('[data-diff-action="create"]')).toContainText(key);
  await expect(review).toContainText("answers live customers at once");
  await screenshot(page, "builder-review-diff");
  await review.getByRole("button", { name: "Create automation" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/automations/(?!new)[^/]+$`));
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByLabel("Key", { exact: true })).toHaveValue(key);

  // 2. Test it now: the sandbox phone beside the builder joins, writes the keyword, taps a button.
  const testPanel = page.getByRole("region", { name: "Test it now" });
  const phone = testPanel.getByRole("region", { name: "Sandbox phone" });
  await phone.getByRole("button", { name: "Send join code" }).click();
  await expect(phone.getByText(/hasn.t joined/)).toHaveCount(0, { timeout: 45_000 });
  await phone.getByLabel("Customer message").fill("I want to check my order");
  await phone.getByRole("button", { name: "Send as customer" }).click();
  const question = phone.getByRole("listitem", { name: "Message from the business" }).filter({ hasText: "Track your order or cancel it?" });
  await expect(question).toBeVisible({ timeout: 60_000 });
  await expect(testPanel.getByRole("status").filter({ hasText: `“${name}” ran` })).toBeVisible();
  await question.getByRole("group", { name: "Reply buttons" }).getByRole("button", { name: "Track" }).click();
  await expect(phone.getByRole("listitem", { name: "Message from the business" }).filter({ hasText: "Order update: you chose track" })).toBeVisible({
    timeout: 60_000,
  });

  // The run, step by step: the four steps, their outcomes, the answer and the function's result in the variables.
  const testRun = testPanel.getByRole("region", { name: "Test run" });
  await expect(testRun.locator('[data-run-status="COMPLETED"]')).toBeVisible({ timeout: 60_000 });
  const runSteps = testRun.locator("[data-run-step]");
  await expect(runSteps).toHaveCount(4);
  await expect(runSteps.nth(1)).toContainText("vars.reply_option");
  await expect(runSteps.nth(2)).toContainText("vars.status");
  await expect(runSteps.nth(2)).toContainText("Open the function's runs");
  await expect(runSteps.nth(3).getByRole("link", { name: "Open the message it sent" })).toBeVisible();
  await screenshot(page, "builder-test-run");

  // 3. One source of truth: the Config page exports it; the keyword changed in the YAML is applied.
  await page.goto(`/projects/${project.id}/config`);
  const download = page.waitForEvent("download");
  await page.getByRole("region", { name: "Current config" }).getByRole("button", { name: "Download" }).click();
  const yaml = fs.readFileSync((await (await download).path())!, "utf8");
  expect(yaml).toContain(`key: ${key}`);
  expect(yaml).toContain("- order");
  expect(yaml).toContain("{{vars.status.text}}");
  const changed = yaml.replace(/keywords:\n(\s+)- order\n/, `keywords:\n$1- pedido${run}\n`);
  expect(changed).not.toBe(yaml);
  await page.getByLabel("Config file to upload").setInputFiles({ name: "config.yaml", mimeType: "application/yaml", buffer: Buffer.from(changed) });
  const changes = page.getByRole("region", { name: "Changes" });
  await expect(changes).toContainText("1 to update");
  await expect(changes.locator('[data-diff-action="update"]')).toContainText(key);
  await changes.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByRole("region", { name: "Applied" })).toContainText("1 updated");
  await screenshot(page, "builder-config-applied");

  // The builder shows the keyword the YAML set.
  await page.goto(`/projects/${project.id}/automations`);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("list", { name: "Keywords list" })).toContainText(`pedido${run}`);
  await expect(page.getByRole("list", { name: "Keywords list" })).not.toContainText(/^order$/);
  await expect(page.getByText(`When a message contains the word 'pedido${run}'`)).toBeVisible();
  await screenshot(page, "builder-after-yaml");
});

test("the list duplicates, edits, reorders, switches on and deletes, each after its change is shown", async ({ page, request }) => {
  test.setTimeout(240_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Builder list e2e ${run}`);
  await signIn(page);
  const call = dashboard(page, project.id);
  const reply = (text: string) => [{ send_reply: { text } }];
  await call("POST", "/config/apply", {
    version: 1,
    flows: [],
    automations: [
      { key: "hours", name: "Hours", trigger: { type: "KEYWORD", keywords: ["hours"] }, steps: reply("We open at 9.") },
      { key: "prices", name: "Prices", trigger: { type: "KEYWORD", keywords: ["price"] }, steps: reply("It costs 5."), active: false },
    ],
  });
  const keys = () => page.locator("[data-automation-key]").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-automation-key")));
  await page.goto(`/projects/${project.id}/automations`);
  await expect.poll(keys).toEqual(["hours", "prices"]);

  // Duplicate: the builder opens on a copy, off, with a free key; created after its diff.
  await page.getByRole("link", { name: "Duplicate Prices" }).click();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Prices (copy)");
  await expect(page.getByLabel("Key", { exact: true })).toHaveValue("prices-copy");
  await expect(page.getByRole("switch", { name: "Active" })).toHaveAttribute("aria-checked", "false");
  await page.getByRole("button", { name: "Create…" }).click();
  const created = page.getByRole("dialog", { name: "Create “Prices (copy)”" });
  await expect(created).toContainText("is off: saving changes nothing customers see");
  await created.getByRole("button", { name: "Create automation" }).click();
  await expect(page.getByRole("heading", { name: "Prices (copy)", level: 1 })).toBeVisible();

  // Edit: the reply's text; the diff names what changes.
  const text = page.getByRole("list", { name: "Steps" }).getByLabel("Message", { exact: true });
  await text.fill("It costs 5 euros.");
  await page.getByRole("button", { name: "Save…" }).click();
  const saved = page.getByRole("dialog", { name: "Save “Prices (copy)”" });
  await expect(saved.locator('[data-diff-action="update"]')).toContainText("prices-copy");
  await expect(saved.locator('[data-diff-action="update"]')).toContainText("steps");
  await screenshot(page, "builder-save-diff");
  await saved.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Prices (copy) saved")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save…" })).toBeDisabled();

  // Reorder: the copy moves up, above Prices.
  await page.goto(`/projects/${project.id}/automations`);
  await expect.poll(keys).toEqual(["hours", "prices", "prices-copy"]);
  await page.getByRole("button", { name: "Move Prices (copy) up" }).click();
  const move = page.getByRole("dialog", { name: "Move “Prices (copy)” up" });
  await expect(move).toContainText("moves from number 3 to number 2 of 3");
  await expect(move.locator('[data-diff-action="update"]')).toContainText("order");
  await move.getByRole("button", { name: "Move", exact: true }).click();
  await expect.poll(keys).toEqual(["hours", "prices-copy", "prices"]);

  // Switching on shows what will answer customers first; switching off applies at once.
  const prices = page.locator('[data-automation-key="prices"]');
  await prices.getByRole("switch", { name: "Active" }).click();
  const on = page.getByRole("dialog", { name: "Switch on “Prices”" });
  await expect(on).toContainText("it starts answering live customers");
  await expect(on.locator('[data-diff-action="update"]')).toContainText("prices");
  await screenshot(page, "automations-switch-on-review");
  await on.getByRole("button", { name: "Switch on" }).click();
  await expect(prices.getByRole("switch", { name: "Active" })).toHaveAttribute("aria-checked", "true");

  // Delete: the diff says delete; the card goes.
  await page.getByRole("button", { name: "Delete Prices (copy)" }).click();
  const remove = page.getByRole("dialog", { name: "Delete “Prices (copy)”" });
  await expect(remove.locator('[data-diff-action="delete"]')).toContainText("prices-copy");
  await remove.getByRole("button", { name: "Delete automation" }).click();
  await expect.poll(keys).toEqual(["hours", "prices"]);
  await screenshot(page, "automations-list-after-edits");
});
