import { expect as baseExpect, test, type APIRequestContext, type Page } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * The inbox says "AI active" only when an agent or an automation can answer the conversation
 * (issue 32 item 14): on a project of its own, one sandbox conversation goes through EXTERNAL without
 * a webhook, FLOWS without automations, a keyword automation, an any-message automation, human
 * handoff, and EXTERNAL with a webhook; the thread's badge and the list row say who answers each time.
 */

// A production build on a shared machine: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });
// The shared sandbox channel's provider sender id (lib/domain/channels/sandbox.ts, SANDBOX_PHONE_NUMBER_ID).
const SANDBOX_SENDER_ID = "sandbox-phone-number-id";

async function customerSays(request: APIRequestContext, from: string, text: string) {
  const sent = await request.post("/api/simulator/customer/messages", {
    data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from, type: "text", text },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
}

function automation(key: string, trigger: Record<string, unknown>) {
  return { key, name: key, trigger, steps: [{ send_reply: { text: `Answer from ${key}` } }] };
}

/** Change the project through the dashboard's own API (as the Overview and Config pages do), then reload. */
async function change(page: Page, projectId: string, path: string, method: "PATCH" | "POST", data: unknown) {
  const response = await page.request.fetch(`/api/dashboard/projects/${projectId}${path}`, { method, data });
  expect(response.ok(), await response.text()).toBe(true);
  await page.reload();
}

test("the inbox says AI active only when an automation or the agent can answer the conversation", async ({ page, request }) => {
  test.setTimeout(240_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  // Unique per run (+1555 and 7 digits of the clock, offset from the other specs' numbers).
  const from = `+1555${String(Date.now() + 6_000_000).slice(-7)}`;
  const project = await ownProject(request, `Answering e2e ${run}`);
  await customerSays(request, from, `join ${project.join_code}`);
  await customerSays(request, from, `Hello ${run}`);

  await signIn(page);
  await page.goto(`/projects/${project.id}/inbox`);
  const row = page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: from });
  await expect(row).toBeVisible();
  await row.click();
  await expect(page).toHaveURL(/[?&]c=conv_/);
  const badge = page.getByTestId("handoff-status");
  const rowBadge = row.locator("[data-answerer]");

  // 1. A new project routes EXTERNAL without a webhook URL: nothing answers (main said "AI active").
  await expect(badge).toHaveText("Not answered");
  await expect(badge).toHaveAttribute("data-handoff", "AI_ACTIVE");
  await expect(badge).toHaveAttribute("title", /no webhook URL/);
  await expect(rowBadge).toHaveText("Not answered");

  // 2. FLOWS with no automation: still nothing answers.
  await change(page, project.id, `/projects/${project.id}`, "PATCH", { routing_mode: "FLOWS" });
  await expect(badge).toHaveText("Not answered");
  await expect(badge).toHaveAttribute("title", /no active automation/);

  // 3. A keyword automation answers some messages only.
  const keyword = automation(`kw_${run}`, { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: [`price${run}`] });
  await change(page, project.id, "/config/apply", "POST", { version: 1, flows: [], automations: [keyword] });
  await expect(badge).toHaveText("AI on keywords");
  await expect(rowBadge).toHaveText("AI on keywords");

  // 4. An any-message automation answers every message: now, and only now, AI active.
  await change(page, project.id, "/config/apply", "POST", { version: 1, flows: [], automations: [keyword, automation(`any_${run}`, { type: "ANY_MESSAGE" })] });
  await expect(badge).toHaveText("AI active");
  await expect(rowBadge).toHaveText("AI active");
  await screenshot(page, "inbox-answering-ai-active");

  // 5. Human handoff: a person answers; off again, the automation is back.
  const handoff = page.getByRole("switch", { name: "Human handoff" });
  await handoff.click();
  await expect(badge).toHaveText("Human active");
  await expect(badge).toHaveAttribute("data-handoff", "HUMAN_ACTIVE");
  await handoff.click();
  await expect(badge).toHaveText("AI active");

  // 6. EXTERNAL with a webhook URL: the automation stays stored but the webhook answers.
  await change(page, project.id, `/projects/${project.id}`, "PATCH", { routing_mode: "EXTERNAL", webhook_url: "http://127.0.0.1:9/answering-e2e" });
  await expect(badge).toHaveText("Your webhook");
  await expect(rowBadge).toHaveText("Your webhook");
  await screenshot(page, "inbox-answering-webhook");
});
