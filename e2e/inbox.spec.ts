import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn } from "./support/auth";

/**
 * The inbox end to end: a customer (the Sandbox phone, then the simulator directly) writes, the open
 * inbox shows it without a reload, the operator replies from the composer and the customer's phone
 * receives it, and human handoff toggles the conversation's handoff.status.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };

// The shared sandbox channel's provider sender id (lib/domain/channels/sandbox.ts,
// SANDBOX_PHONE_NUMBER_ID): the Channel wire object does not expose provider sender ids.
const SANDBOX_SENDER_ID = "sandbox-phone-number-id";

interface ChannelWire {
  id: string;
  platform: string;
  is_sandbox: boolean;
}

async function demoProject(request: APIRequestContext) {
  const identity = await request.get("/api/v1/identity", { headers: auth });
  expect(identity.ok()).toBe(true);
  const projectId = ((await identity.json()) as { project: { id: string } }).project.id;
  const channels = await request.get("/api/v1/channels", { headers: auth });
  const sandbox = ((await channels.json()) as { data: ChannelWire[] }).data.find((channel) => channel.is_sandbox);
  expect(sandbox, "the shared sandbox channel is listed").toBeTruthy();
  return { projectId, sandboxChannelId: sandbox!.id };
}

/** A number no earlier run used: +1555 and the last 7 digits of the clock (plus a salt per call). */
function uniqueNumber(salt: number): string {
  return `+1555${String(Date.now() + salt).slice(-7)}`;
}

/** Opens the Sandbox phone as `from` and joins the demo project with its join code. */
async function joinAsTester(page: Page, projectId: string, from: string) {
  await page.goto(`/projects/${projectId}/sandbox`);
  const number = page.getByLabel("Customer number");
  await expect(number).toBeVisible();
  await number.fill(from);
  await number.press("Enter");
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await expect(phone.getByText(`you are ${from}`)).toBeVisible();
  await page.getByRole("button", { name: "Send join code" }).last().click();
  await expect(page.getByText("Joined", { exact: true })).toBeVisible({ timeout: 20_000 });
  return phone;
}

test("a customer message appears live in the inbox, the operator replies and hands off", async ({ page, request }) => {
  test.setTimeout(180_000);
  const { projectId, sandboxChannelId } = await demoProject(request);
  const from = uniqueNumber(0);
  const run = from.slice(-7);

  await signIn(page);

  // 1. The customer joins and writes through the UI's Sandbox phone.
  const phone = await joinAsTester(page, projectId, from);
  const hello = `Hello from e2e ${run}`;
  await phone.getByLabel("Customer message").fill(hello);
  await phone.getByRole("button", { name: "Send as customer" }).click();
  await expect(phone.getByRole("listitem", { name: "Message from the customer" }).filter({ hasText: hello })).toContainText("Sent", { timeout: 45_000 });

  // 2. The inbox lists the conversation; opening it puts it in the URL.
  await page.goto(`/projects/${projectId}/inbox`);
  const list = page.getByRole("list", { name: "Conversations" });
  const row = list.getByRole("link").filter({ hasText: from });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await row.click();
  await expect(page).toHaveURL(/[?&]c=conv_/);
  const conversationId = new URL(page.url()).searchParams.get("c")!;
  const thread = page.getByRole("log", { name: /^Messages with / });
  await expect(thread.getByText(hello)).toBeVisible({ timeout: 20_000 });

  // 3. A new inbound message shows up in the open inbox without a reload (list and thread).
  const live = `Live from the simulator ${run}`;
  const simulated = await request.post("/api/simulator/customer/messages", {
    data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from, type: "text", text: live },
  });
  expect(simulated.ok(), await simulated.text()).toBe(true);
  await expect(thread.getByText(live)).toBeVisible({ timeout: 15_000 });
  await expect(list.getByRole("link").filter({ hasText: from })).toContainText(live, { timeout: 15_000 });
  await expect(page.getByRole("status", { name: "Reply window" })).toContainText("Window closes in");

  // 4. Reply from the composer: the bubble reaches sent / delivered / read and the customer gets it.
  const reply = `Reply from the inbox ${run}`;
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill(reply);
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  const replyBubble = thread.locator('li[data-direction="outbound"]').filter({ hasText: reply });
  await expect(replyBubble).toBeVisible({ timeout: 15_000 });
  // The optimistic bubble gives way to the real message (for a moment both may be drawn).
  await expect(replyBubble).toHaveCount(1, { timeout: 15_000 });
  await expect(replyBubble.locator("[data-status]")).toHaveAttribute("data-status", /^(sent|delivered|read)$/, { timeout: 30_000 });
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/api/dashboard/projects/${projectId}/sandbox/inbox?${new URLSearchParams({ channel_id: sandboxChannelId, from })}`);
        const body = (await response.json()) as { data: { text: string | null }[] };
        return body.data.map((message) => message.text);
      },
      { timeout: 20_000, message: "the simulated customer received the reply" },
    )
    .toContain(reply);

  await screenshot(page, "inbox-1280");

  // 5. Human handoff on: HUMAN_ACTIVE in the UI and in the API; then off again.
  const handoff = page.getByRole("switch", { name: "Human handoff" });
  await expect(handoff).toHaveAttribute("aria-checked", "false");
  await handoff.click();
  await expect(handoff).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("handoff-status")).toHaveText("Human active");
  const readHandoff = async () => {
    const response = await request.get(`/api/v1/conversations/${conversationId}`, { headers: auth });
    return ((await response.json()) as { handoff: { status: string } }).handoff.status;
  };
  expect(await readHandoff()).toBe("HUMAN_ACTIVE");
  await page.getByRole("button", { name: "What does human handoff do?" }).click();
  await expect(page.getByRole("note").filter({ hasText: "409 ai_handoff_active" })).toBeVisible();
  await screenshot(page, "inbox-handoff");
  await page.keyboard.press("Escape");
  await handoff.click();
  await expect(handoff).toHaveAttribute("aria-checked", "false");
  await expect(page.getByTestId("handoff-status")).toHaveText("AI active");
  expect(await readHandoff()).toBe("AI_ACTIVE");

  // The phone shows what the business sent.
  await page.goto(`/projects/${projectId}/sandbox`);
  await expect(page.getByRole("region", { name: "Sandbox phone" }).getByRole("listitem", { name: "Message from the business" }).filter({ hasText: reply })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByRole("link", { name: "Open in inbox" }).first()).toHaveAttribute("href", new RegExp(`c=${conversationId}`));
  await screenshot(page, "sandbox-phone");

  // 6. Phone width: list and thread are separate views; the back link returns to the list.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/projects/${projectId}/inbox`);
  await expect(page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: from })).toBeVisible({ timeout: 20_000 });
  await screenshot(page, "inbox-390-list");
  await page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: from }).click();
  await expect(page.getByRole("log", { name: /^Messages with / }).getByText(reply)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("list", { name: "Conversations" })).toBeHidden();
  await screenshot(page, "inbox-390-thread");
  await page.getByRole("link", { name: "Conversations", exact: true }).click();
  await expect(page.getByRole("list", { name: "Conversations" })).toBeVisible();
});
