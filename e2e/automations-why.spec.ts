import { expect as baseExpect, test, type APIRequestContext, type Page } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * "Why did it (not) fire?" end to end (issue 34): a sandbox tester's message that starts nothing, and
 * the reason for each automation read in the UI, from the inbox's message (a link under it) to the
 * evaluation svc recorded when the message came.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
const SANDBOX_SENDER_ID = "sandbox-phone-number-id";

function dashboard(page: Page, projectId: string) {
  return async <T>(method: "GET" | "POST" | "PATCH", path: string, data?: unknown): Promise<T> => {
    const response = await page.request.fetch(`/api/dashboard/projects/${projectId}${path}`, { method, data });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
}

async function customerSays(request: APIRequestContext, from: string, text: string) {
  const sent = await request.post("/api/simulator/customer/messages", {
    data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from, type: "text", text },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
}

test("a message that starts nothing: the inbox links to the reason for each automation, in priority order", async ({ page, request }) => {
  test.setTimeout(240_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const from = `+1555${String(Date.now() + 7_000_000).slice(-7)}`;
  const project = await ownProject(request, `Why e2e ${run}`);
  await signIn(page);
  const call = dashboard(page, project.id);

  // Routing FLOWS; a welcome, a keyword, and a keyword that is off.
  await call("PATCH", `/projects/${project.id}`, { routing_mode: "FLOWS" });
  const reply = (text: string) => [{ send_reply: { text } }];
  await call("POST", "/config/apply", {
    version: 1,
    flows: [],
    automations: [
      { key: `welcome_${run}`, name: `Welcome ${run}`, trigger: { type: "WELCOME" }, steps: reply("Welcome!") },
      { key: `hours_${run}`, name: `Hours ${run}`, trigger: { type: "KEYWORD", keywords: ["hours"] }, steps: reply("We open at 9.") },
      { key: `price_${run}`, name: `Price ${run}`, trigger: { type: "KEYWORD", keywords: ["price"] }, steps: reply("It costs 5."), active: false },
    ],
  });

  // The tester joins (its first message: the welcome runs), then writes something no automation takes.
  await customerSays(request, from, `join ${project.join_code}`);
  const text = `Hello there ${run}`;
  await customerSays(request, from, text);
  let conversationId = "";
  await expect
    .poll(async () => {
      const list = await call<{ data: Array<{ id: string; phone: string | null }> }>("GET", "/conversations?limit=20");
      conversationId = list.data.find((c) => c.phone === from)?.id ?? "";
      return conversationId;
    })
    .not.toBe("");

  // The inbox: under the customer's message, the link to why it did (not) start an automation.
  await page.goto(`/projects/${project.id}/inbox?c=${conversationId}`);
  const thread = page.getByRole("log", { name: /^Messages with / });
  const message = thread.getByRole("listitem", { name: "Received text message" }).filter({ hasText: text });
  await expect(message).toBeVisible();
  await screenshot(page, "why-inbox-link");
  await message.getByRole("link", { name: "Why (no) automation?" }).click();

  await expect(page.getByRole("heading", { name: "Why did it (not) fire?", level: 1 })).toBeVisible();
  await expect(page.getByText(text)).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "No automation ran" })).toBeVisible();
  const considered = page.getByRole("list", { name: "Automations considered, in priority order" });
  const rows = considered.getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute("data-automation-key", `welcome_${run}`);
  await expect(rows.nth(1)).toHaveAttribute("data-automation-key", `hours_${run}`);
  await expect(rows.nth(2)).toHaveAttribute("data-automation-key", `price_${run}`);
  for (const row of [rows.nth(0), rows.nth(1), rows.nth(2)]) await expect(row).not.toHaveAttribute("data-result", "ran");

  // Each one's reason, in words, with what to do about it.
  await expect(rows.nth(0).locator("[data-reason]")).toHaveAttribute("data-reason", "not_first_message");
  await expect(rows.nth(0)).toContainText("answers a contact's very first message only");
  await expect(rows.nth(1).locator("[data-reason]")).toHaveAttribute("data-reason", "keyword_not_matched");
  await expect(rows.nth(1)).toContainText("Add the words customers use as keywords");
  await expect(rows.nth(2).locator("[data-reason]")).toHaveAttribute("data-reason", "inactive");
  await expect(rows.nth(2)).toContainText("switch it on");
  await screenshot(page, "why-nothing-fired");

  // The join message, by contrast, started the welcome: its explanation says so and links the run.
  const join = thread.getByRole("listitem", { name: "Received text message" }).filter({ hasText: `join ${project.join_code}` });
  await page.goBack();
  await join.getByRole("link", { name: "Why (no) automation?" }).click();
  await expect(page.getByRole("status").filter({ hasText: `“Welcome ${run}” ran` })).toBeVisible();
  await expect(rows.nth(0)).toHaveAttribute("data-result", "ran");
  await page.getByRole("link", { name: "Open the run, step by step" }).click();
  await expect(page.getByRole("heading", { name: `Run of Welcome ${run}`, level: 1 })).toBeVisible();
  await expect(page.locator("[data-run-step]")).toHaveCount(1);
  await screenshot(page, "why-run-page");
});
