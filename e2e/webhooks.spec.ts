import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect as baseExpect, test, type APIRequestContext } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn } from "./support/auth";

/**
 * Webhook logs end to end: a receiver of our own answers 500, a sandbox customer writes, the logs
 * page lists the delivery with its failed attempt (the 500 and the body the receiver sent), then the
 * receiver recovers, Redeliver sends the event again and the new delivery succeeds with a 200.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
// The suite shares one server (and, on a busy machine, two cores): allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

// The shared sandbox channel's provider sender id (lib/domain/channels/sandbox.ts,
// SANDBOX_PHONE_NUMBER_ID): the Channel wire object does not expose provider sender ids.
const SANDBOX_SENDER_ID = "sandbox-phone-number-id";

interface ProjectWire {
  id: string;
  join_code: string;
  webhook_url: string | null;
  routing_mode: "EXTERNAL" | "FLOWS" | "AGENT";
}

interface DeliveryWire {
  id: string;
  event_type: string;
  event: { payload: { text?: string | null } };
}

/** A webhook endpoint on loopback whose answer the test flips between failing and healthy. */
async function startReceiver() {
  const state = { status: 500, bodies: [] as Array<{ status: number; body: string }> };
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      state.bodies.push({ status: state.status, body });
      response.writeHead(state.status, { "content-type": "application/json" });
      response.end(JSON.stringify(state.status >= 400 ? { error: "e2e receiver is down for maintenance" } : { ok: true, received: "thanks" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    url: `http://127.0.0.1:${port}/svc-webhook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function demoProject(request: APIRequestContext): Promise<ProjectWire> {
  const identity = await request.get("/api/v1/identity", { headers: auth });
  expect(identity.ok()).toBe(true);
  const projectId = ((await identity.json()) as { project: { id: string } }).project.id;
  const project = await request.get(`/api/v1/projects/${projectId}`, { headers: auth });
  expect(project.ok()).toBe(true);
  return (await project.json()) as ProjectWire;
}

/** A customer of the shared sandbox writes through the built-in provider simulator. */
async function customerSays(request: APIRequestContext, from: string, text: string) {
  const response = await request.post("/api/simulator/customer/messages", {
    data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from, type: "text", text },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The message.received delivery whose payload carries `text` (the list itself does not show payloads). */
async function deliveryWithText(request: APIRequestContext, text: string): Promise<string | null> {
  const list = await request.get("/api/v1/webhook-deliveries?event=message.received&limit=20", { headers: auth });
  if (!list.ok()) return null;
  for (const delivery of ((await list.json()) as { data: Array<{ id: string }> }).data) {
    const detail = await request.get(`/api/v1/webhook-deliveries/${delivery.id}`, { headers: auth });
    if (detail.ok() && ((await detail.json()) as DeliveryWire).event.payload.text === text) return delivery.id;
  }
  return null;
}

test("a failed delivery shows its 500; after the endpoint recovers, Redeliver succeeds", async ({ page, request }) => {
  test.setTimeout(300_000);
  const receiver = await startReceiver();
  const original = await demoProject(request);
  const projectId = original.id;
  // Unique per run (+1555 and 7 digits of the clock, offset from the inbox and sandbox specs' numbers).
  const from = `+1555${String(Date.now() + 3_000_000).slice(-7)}`;
  const text = `Webhook e2e ${Date.now().toString(36)}`;

  try {
    // The tester joins before the webhook is set, so the join's own event is not delivered to us.
    await customerSays(request, from, `join ${original.join_code}`);
    const patched = await request.patch(`/api/v1/projects/${projectId}`, { headers: auth, data: { webhook_url: receiver.url, routing_mode: "EXTERNAL" } });
    expect(patched.ok(), await patched.text()).toBe(true);
    await customerSays(request, from, text);

    let deliveryId: string | null = null;
    await expect
      .poll(async () => (deliveryId = await deliveryWithText(request, text)), {
        message: "a message.received delivery carries the customer's text",
        timeout: 90_000,
      })
      .not.toBeNull();
    // The first attempt goes out at once and fails with the receiver's 500.
    await expect.poll(() => receiver.state.bodies.some((b) => b.status === 500 && b.body.includes(text)), { timeout: 60_000 }).toBe(true);

    await signIn(page);
    await page.goto(`/projects/${projectId}/webhooks`);
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    await expect(page.getByText(receiver.url)).toBeVisible();

    // Filters live in the URL.
    await page.getByLabel("Event type").selectOption("message.received");
    await expect(page).toHaveURL(/[?&]event=message\.received/);

    const row = page.locator(`tr[data-delivery-id="${deliveryId}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText("message.received");
    await expect(row).toContainText("500");
    await expect(row.getByText(/^(Pending|Failed)$/)).toBeVisible();

    // The chart counts the failed attempt and says so in words.
    await expect(page.getByTestId("delivery-summary")).toContainText(/of [\d,]+ attempts? succeeded in the last 24 h/);
    await expect(page.getByRole("group", { name: /Delivery attempts per hour/ })).toBeVisible();
    await screenshot(page, "webhooks-logs-1280");
    // The range toggle redraws the chart for a week and keeps the choice in the URL.
    await page.getByRole("button", { name: "7 days" }).click();
    await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
    await expect(page).toHaveURL(/[?&]range=7d/);
    await expect(page.getByTestId("delivery-summary")).toContainText("in the last 7 days");
    await page.getByRole("button", { name: "24 hours" }).click();
    await expect(page.getByTestId("delivery-summary")).toContainText("in the last 24 h");

    await row.getByRole("link", { name: "message.received" }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${deliveryId}$`));
    const firstAttempt = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Attempt 1" }) });
    await expect(firstAttempt).toContainText("HTTP 500");
    await expect(firstAttempt.getByLabel("Response body of attempt 1")).toContainText("e2e receiver is down for maintenance");
    await expect(firstAttempt).toContainText(receiver.url);
    // The payload viewer shows the event the receiver got.
    await expect(page.getByRole("region", { name: "Event payload JSON" })).toContainText(text);
    await screenshot(page, "webhooks-delivery-failed-1280");

    // The endpoint recovers; redeliver and watch the new delivery land.
    receiver.state.status = 200;
    await page.getByRole("button", { name: "Redeliver" }).click();
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText("Redelivery queued");
    await expect(page).not.toHaveURL(new RegExp(`/webhooks/${deliveryId}$`));
    await expect(page.getByText("Redelivered by hand")).toBeVisible();
    await expect(page.getByText("Succeeded", { exact: true })).toBeVisible({ timeout: 60_000 });
    const redelivered = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Attempt 1" }) });
    await expect(redelivered).toContainText("HTTP 200");
    await expect(redelivered.getByLabel("Response body of attempt 1")).toContainText("thanks");
    expect(receiver.state.bodies.some((b) => b.status === 200 && b.body.includes(text))).toBe(true);
    const dismiss = page.getByRole("button", { name: "Dismiss notification" });
    while ((await dismiss.count()) > 0)
      await dismiss
        .first()
        .click({ timeout: 2_000 })
        .catch(() => undefined);
    await screenshot(page, "webhooks-delivery-redelivered-1280");

    // Back on the list, the redelivery is the newest row and succeeded.
    await page.getByRole("link", { name: "Webhooks" }).first().click();
    await expect(page.locator("tbody tr").first()).toContainText("Succeeded");
    await expect(page.locator("tbody tr").first()).toContainText("Redelivery");
    await screenshot(page, "webhooks-logs-after-1280");

    // Replay: every message.received of the last hour once more (our receiver answers 200 now).
    await page.getByRole("button", { name: "Replay events" }).click();
    const replay = page.getByRole("dialog", { name: "Replay events" });
    await replay.getByLabel("Event type").selectOption("message.received");
    await replay.getByLabel("Latest delivery").selectOption("");
    await replay.getByRole("button", { name: "Replay events" }).click();
    await expect(replay).toBeHidden();
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText(/Replaying \d+ events?/);
    await expect(page.locator("tbody tr").first()).toContainText("Replay");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("list", { name: "Webhook deliveries" })).toBeVisible();
    await screenshot(page, "webhooks-logs-390");
  } finally {
    // The demo project is shared with other specs: put its webhook back even when an assertion failed.
    await request.patch(`/api/v1/projects/${projectId}`, { headers: auth, data: { webhook_url: original.webhook_url, routing_mode: original.routing_mode } });
    await receiver.close();
  }
});
