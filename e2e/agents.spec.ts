import { expect as baseExpect, test, type Page } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * The business agent end to end, on a project of its own: routing AGENT on the Overview; on the Agent
 * page the agent enabled on the shared sandbox, a FAQ entry, a FUNCTIONS connector with a
 * HOSTED_FUNCTION tool (the function deployed through the dashboard API) and a skill that calls it;
 * the sandbox phone gets the FAQ answer and the function's reply; "human" hands the conversation to
 * the inbox; an eval with one passing and one failing case shows both.
 */

// A production build on a shared machine, and replies that go through the job queue: allow slow answers.
const expect = baseExpect.configure({ timeout: 30_000 });

/** A hosted function deployed through the dashboard API (the session's cookie): its result's text becomes the skill's reply. */
async function deployFunction(page: Page, projectId: string, run: string): Promise<{ id: string; name: string; slug: string }> {
  const base = `/api/dashboard/projects/${projectId}/functions`;
  const slug = `order-status-${run}`;
  const name = `Order status ${run}`;
  const created = await page.request.post(base, { data: { slug, name, trigger_type: "KEYWORD" } });
  expect(created.ok(), await created.text()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  const source = `export default async function (event) {\n  return { text: "Order ${run} ships tomorrow (" + event.tool + ")" };\n}\n`;
  const deployed = await page.request.post(`${base}/${id}/deploy`, { data: { source } });
  expect(deployed.ok(), await deployed.text()).toBe(true);
  expect(((await deployed.json()) as { status: string }).status).toBe("ok");
  return { id, name, slug };
}

async function joinSandbox(page: Page, projectId: string, from: string) {
  await page.goto(`/projects/${projectId}/sandbox`);
  const number = page.getByLabel("Customer number");
  await number.fill(from);
  await number.press("Enter");
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await expect(phone.getByText(/hasn.t joined/)).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Send join code" }).last().click();
  await expect(page.getByText("Joined", { exact: true })).toBeVisible({ timeout: 20_000 });
  return phone;
}

async function say(page: Page, text: string) {
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await phone.getByLabel("Customer message").fill(text);
  await phone.getByRole("button", { name: "Send as customer" }).click();
}

async function setUpAgent(page: Page, projectId: string, fn: { name: string; slug: string }, run: string) {
  await page.goto(`/projects/${projectId}/agent`);
  await expect(page.getByRole("heading", { name: "Agent", level: 1 })).toBeVisible();
  await expect(page.locator('[data-reason="SANDBOX_TEST_ONLY"]')).toContainText("testing only");
  await page.getByRole("button", { name: "Enable agent" }).click();
  await expect(page.getByTestId("agent-status")).toHaveText("ACTIVE", { timeout: 45_000 });

  // FAQ entry.
  await page.getByRole("button", { name: "Add FAQ entry" }).click();
  await page.getByLabel("FAQ question 1").fill("What are your opening hours?");
  await page.getByLabel("FAQ answer 1").fill(`We open at 9am every day (${run}).`);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();

  // FUNCTIONS connector and its HOSTED_FUNCTION tool.
  await page.getByRole("tab", { name: "Connectors" }).click();
  await page.getByRole("button", { name: "New connector" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Functions");
  await page.getByRole("button", { name: "Create connector" }).click();
  const connector = page.getByRole("listitem", { name: "Connector Functions" });
  await expect(connector).toBeVisible();
  await connector.getByRole("button", { name: "Add tool" }).click();
  await page.getByLabel("Tool name", { exact: true }).fill("order_status");
  await page.getByRole("combobox", { name: "Function" }).selectOption({ label: `${fn.name} (${fn.slug})` });
  await page.getByRole("button", { name: "Create tool" }).click();
  await expect(connector).toContainText("order_status");
  await screenshot(page, "agent-connectors");

  // A skill whose trigger calls it.
  await page.getByRole("tab", { name: "Skills" }).click();
  await page.getByRole("button", { name: "Add skill" }).click();
  await page.getByLabel("Skill 1 name").fill("order");
  await page.getByLabel("Skill 1 description").fill("Tells where an order is");
  await page.getByLabel("Skill 1 trigger", { exact: true }).fill("order");
  await page.getByLabel("Skill 1 trigger", { exact: true }).press("Enter");
  await page.getByLabel("Skill 1 tool").selectOption("order_status");
  await page.getByRole("button", { name: "Save skills" }).click();
  await expect(page.getByText("Skills saved")).toBeVisible();

  // The test console runs the skill without sending anything.
  await page.getByRole("tab", { name: "Test" }).click();
  await page.getByLabel("Test message").fill("where is my order");
  await page.getByRole("button", { name: "Send test" }).click();
  const result = page.getByTestId("agent-test-result");
  await expect(result.getByTestId("agent-reply")).toContainText(`Order ${run} ships tomorrow`);
  await expect(result).toContainText("skill order");
  await expect(result.getByRole("list", { name: "Tool calls" })).toContainText("order_status");
}

test("an agent on the sandbox answers from its FAQ and a function, hands off to the inbox, and is scored by an eval", async ({ page, request }) => {
  test.setTimeout(300_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const from = `+1555${String(Date.now() + 9_000_000).slice(-7)}`;
  const project = await ownProject(request, `Agent e2e ${run}`);
  await signIn(page);

  // 1. Routing AGENT, as an operator sets it on the Overview.
  await page.goto(`/projects/${project.id}`);
  await page.getByRole("radio", { name: /^Agent/ }).check();
  await expect(page.getByText("Routing set to Agent")).toBeVisible();

  // 2. The agent: FAQ, connector, tool on a deployed function, skill.
  const fn = await deployFunction(page, project.id, run);
  await setUpAgent(page, project.id, fn, run);
  await screenshot(page, "agent-test-console");

  // 3. The sandbox phone: the FAQ answer, then the function's reply.
  const phone = await joinSandbox(page, project.id, from);
  const business = phone.getByRole("listitem", { name: "Message from the business" });
  await say(page, "What are your opening hours?");
  await expect(business.filter({ hasText: `We open at 9am every day (${run}).` })).toBeVisible({ timeout: 60_000 });
  await say(page, "Where is my order?");
  await expect(business.filter({ hasText: `Order ${run} ships tomorrow (order_status)` })).toBeVisible({ timeout: 60_000 });
  await screenshot(page, "agent-sandbox-replies");

  // 4. "human": the thread passes to the inbox, the conversation's handoff turns on.
  await say(page, "I want a human");
  const customer = phone.getByRole("listitem", { name: "Message from the customer" });
  await expect(customer.filter({ hasText: "I want a human" })).toContainText("Sent", { timeout: 45_000 });
  const openInInbox = page.getByRole("link", { name: "Open in inbox" }).first();
  await expect(openInInbox).toHaveAttribute("href", /c=conv_/, { timeout: 15_000 });
  await page.goto((await openInInbox.getAttribute("href"))!);
  await expect(page.getByTestId("handoff-status")).toHaveAttribute("data-handoff", "HUMAN_ACTIVE", { timeout: 45_000 });
  await expect(page.getByTestId("thread-owner").first()).toHaveAttribute("title", "BUSINESS_INBOX", { timeout: 15_000 });
  await screenshot(page, "agent-handoff-inbox");

  // 4b. The person replies from the inbox (handoff on refuses automated sends, not the operator's).
  const reply = `A person here ${run}`;
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill(reply);
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  const replyBubble = page
    .getByRole("log", { name: /^Messages with / })
    .locator('li[data-direction="outbound"]')
    .filter({ hasText: reply });
  await expect(replyBubble.first()).toBeVisible({ timeout: 15_000 });
  await expect(replyBubble.first().locator("[data-status]")).toHaveAttribute("data-status", /^(sent|delivered|read)$/, { timeout: 60_000 });

  // 5. An eval: one case passes, one fails, each shown with its checks.
  await page.goto(`/projects/${project.id}/agent`);
  // Right after a navigation the click can land before React hydrates the tabs (seen on a slow machine):
  // click until the tab is selected.
  const evalTab = page.getByRole("tab", { name: "Eval" });
  await expect(async () => {
    await evalTab.click();
    await expect(evalTab).toHaveAttribute("aria-selected", "true", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByLabel("Case 1 name").fill("hours");
  await page.getByLabel("Case 1 input").fill("What are your opening hours?");
  await page.getByLabel("Case 1 contains").fill("9am");
  await page.getByRole("button", { name: "Add case" }).click();
  await page.getByLabel("Case 2 name").fill("wrong-hours");
  await page.getByLabel("Case 2 input").fill("What are your opening hours?");
  await page.getByLabel("Case 2 contains").fill("midnight");
  await page.getByRole("button", { name: "Run eval" }).click();
  await expect(page.getByTestId("eval-score")).toHaveText("50%");
  await expect(page.getByRole("listitem", { name: "Case hours: passed" })).toContainText("all present");
  await expect(page.getByRole("listitem", { name: "Case wrong-hours: failed" })).toContainText("missing: midnight");
  await screenshot(page, "agent-eval");
});
