import { expect, test, type APIRequestContext, type Page } from "./support/test";
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

  // Search asks the server (GET /conversations?q=): the number typed with a space finds the
  // conversation among every conversation of the project; a miss says so; clearing brings all back.
  const search = page.getByRole("searchbox", { name: "Search conversations" });
  await search.fill(`${from.slice(0, 5)} ${from.slice(5)}`);
  await expect(list.getByRole("link")).toHaveCount(1, { timeout: 15_000 });
  await expect(list.getByRole("link").filter({ hasText: from })).toBeVisible();
  await search.fill(`nobody ${run}`);
  await expect(page.getByText(`No conversation matches “nobody ${run}”`)).toBeVisible({ timeout: 15_000 });
  await search.fill("");
  await expect(list.getByRole("link").filter({ hasText: from })).toBeVisible({ timeout: 15_000 });

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
        const response = await page.request.get(
          `/api/dashboard/projects/${projectId}/sandbox/inbox?${new URLSearchParams({ channel_id: sandboxChannelId, from })}`,
        );
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
  // Handoff off says who answers now (the demo project's routing is shared with other specs: e2e/inbox-answering.spec.ts checks each case).
  await expect(page.getByTestId("handoff-status")).toHaveAttribute("data-handoff", "AI_ACTIVE");
  await expect(page.getByTestId("handoff-status")).not.toHaveText("Human active");
  expect(await readHandoff()).toBe("AI_ACTIVE");

  // The phone shows what the business sent.
  await page.goto(`/projects/${projectId}/sandbox`);
  await expect(
    page.getByRole("region", { name: "Sandbox phone" }).getByRole("listitem", { name: "Message from the business" }).filter({ hasText: reply }),
  ).toBeVisible({
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

test("structured content sent through the API and from the customer is drawn from the wire", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { projectId, sandboxChannelId } = await demoProject(request);
  const from = uniqueNumber(7);
  const run = from.slice(-7);
  const customer = (data: Record<string, unknown>) =>
    request.post("/api/simulator/customer/messages", { data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from, ...data } });

  // The customer joins through the simulator (no browser involved), which opens the reply window.
  const project = await request.get(`/api/v1/projects/${projectId}`, { headers: auth });
  const joinCode = ((await project.json()) as { join_code: string }).join_code;
  expect((await customer({ type: "text", text: `join ${joinCode}` })).ok()).toBe(true);
  let conversationId = "";
  await expect
    .poll(
      async () => {
        const response = await request.get("/api/v1/conversations?limit=100", { headers: auth });
        const found = ((await response.json()) as { data: { id: string; phone: string | null }[] }).data.find((c) => c.phone === from);
        conversationId = found?.id ?? "";
        return conversationId;
      },
      { timeout: 20_000, message: "the join made a conversation" },
    )
    .not.toBe("");

  // Two sends through the public API, not the composer: this browser never saw their content.
  const sendApi = (content: Record<string, unknown>) =>
    request.post("/api/v1/messages", { headers: auth, data: { channel_id: sandboxChannelId, conversation_id: conversationId, ...content } });
  const location = await sendApi({ location: { latitude: 48.8584, longitude: 2.2945, name: `Tower ${run}`, address: "Champ de Mars, Paris" } });
  expect(location.ok(), await location.text()).toBe(true);
  // Pair pacing allows one new message per 6 s to this customer: retry until the slot is free.
  await expect
    .poll(
      async () =>
        (
          await sendApi({
            interactive: {
              type: "button",
              body: `Pick a slot ${run}`,
              buttons: [
                { id: "am", title: "Morning" },
                { id: "pm", title: "Afternoon" },
              ],
            },
          })
        ).status(),
      { timeout: 20_000, intervals: [2_000] },
    )
    .toBe(200);
  // And the customer shares a location back.
  expect((await customer({ type: "location", location: { latitude: 51.5007, longitude: -0.1246, name: `Clock ${run}` } })).ok()).toBe(true);

  await signIn(page);
  await page.goto(`/projects/${projectId}/inbox?c=${conversationId}`);
  const thread = page.getByRole("log", { name: /^Messages with / });
  const sentLocation = thread.locator('li[data-direction="outbound"]').filter({ hasText: `Tower ${run}` });
  await expect(sentLocation).toBeVisible({ timeout: 20_000 });
  await expect(sentLocation).toContainText("Champ de Mars, Paris");
  await expect(sentLocation).toContainText("48.8584, 2.2945");
  await expect(sentLocation.getByRole("link", { name: "Open on a map" })).toHaveAttribute("href", /mlat=48\.8584&mlon=2\.2945/);

  const buttons = thread
    .locator('li[data-direction="outbound"]')
    .filter({ hasText: `Pick a slot ${run}` })
    .getByRole("list", { name: "Reply buttons" });
  await expect(buttons.getByRole("listitem")).toHaveText(["Morning", "Afternoon"], { timeout: 20_000 });

  const received = thread.locator('li[data-direction="inbound"]').filter({ hasText: `Clock ${run}` });
  await expect(received).toContainText("51.5007, -0.1246", { timeout: 20_000 });
  await screenshot(page, "inbox-structured-content");
});
