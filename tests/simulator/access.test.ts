import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { env } from "@/lib/config";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { startHarness, type Harness } from "../messages/support";
import { addOperator, dash } from "../dashboard/support";

/**
 * The built-in simulator in production (README "Running in production"): its customer routes (read any
 * number's inbox, inject signed inbound messages) and control routes (test hooks) answer 404 to
 * anonymous callers unless SVC_SIMULATOR_PUBLIC=true; the provider-facing Graph routes stay served (the
 * app's own sends use them); the dashboard's sandbox phone keeps working for a signed-in operator (its
 * server-side calls carry the installation's simulator key). Outside production it is open as before.
 */
let closed: Harness;
let open: Harness;
beforeAll(async () => {
  closed = await startHarness({ simulatorOpen: false, statusDelaysMs: { sent: 5, delivered: 10, read: 15 } });
  open = await startHarness({ simulatorOpen: true });
});
afterAll(async () => {
  await closed?.close();
  await open?.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const inboxPath = (address: string) => `/api/simulator/customer/inbox?sender_id=${SANDBOX_PHONE_NUMBER_ID}&address=${encodeURIComponent(address)}`;

async function anonymous(h: Harness, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${h.server.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed as Record<string, unknown> };
}

describe("SVC_SIMULATOR_PUBLIC (lib/config.ts)", () => {
  it.each([
    ["production", undefined, false],
    ["production", "true", true],
    ["production", "false", false],
    ["development", undefined, true],
    ["test", undefined, true],
    ["development", "false", false],
  ] as const)("NODE_ENV=%s, SVC_SIMULATOR_PUBLIC=%s → open %s", (nodeEnv, setting, expected) => {
    vi.stubEnv("NODE_ENV", nodeEnv);
    vi.stubEnv("SVC_SIMULATOR_PUBLIC", setting);
    expect(env().simulatorPublic).toBe(expected);
  });
});

describe("a closed simulator (production without SVC_SIMULATOR_PUBLIC)", () => {
  it.each([
    ["GET", inboxPath("+15550001111")],
    ["POST", "/api/simulator/customer/messages"],
    ["POST", "/api/simulator/customer/media"],
    ["POST", "/api/simulator/customer/flows/exchange"],
    ["GET", "/api/simulator/customer/flows/123"],
    ["POST", "/api/simulator/control/numbers/throughput"],
    ["GET", "/api/simulator/control/numbers/throughput?phone_number_id=1"],
    ["POST", "/api/simulator/control/flows/fail-next-publish"],
    ["POST", "/api/simulator/control/agents/fail-next"],
    ["POST", "/api/simulator/templates/123/review"],
    // The simulator decodes segments and skips empty ones: so does the gate.
    ["GET", `/api/simulator/%63ustomer/inbox?sender_id=${SANDBOX_PHONE_NUMBER_ID}&address=1`],
    ["POST", "/api/simulator//customer/messages"],
  ])("anonymous %s %s → 404", async (method, path) => {
    const res = await anonymous(closed, method, path, method === "POST" ? {} : undefined);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found" });
  });

  it("an anonymous customer message is not injected; a wrong simulator key is anonymous", async () => {
    const before = await closed.app.db.select({ id: messages.id }).from(messages);
    const message = { platform: "PLATFORM_A", sender_id: SANDBOX_PHONE_NUMBER_ID, from: "+15550002222", type: "text", text: "injected" };
    expect((await anonymous(closed, "POST", "/api/simulator/customer/messages", message)).status).toBe(404);
    const wrongKey = await anonymous(closed, "POST", "/api/simulator/customer/messages", message, { "x-svc-simulator-key": "guess" });
    expect(wrongKey.status).toBe(404);
    await closed.settle(10);
    expect(await closed.app.db.select({ id: messages.id }).from(messages)).toHaveLength(before.length);
  });

  it("its provider-facing routes stay served: the route list and the Graph API the app sends through", async () => {
    expect((await anonymous(closed, "GET", "/api/simulator")).status).toBe(200);
    // Without a token the Graph send answers the provider's own 401, not the closed simulator's 404.
    const graph = await anonymous(closed, "POST", `/api/simulator/graph/${SANDBOX_PHONE_NUMBER_ID}/messages`, {});
    expect(graph.status).toBe(401);
  });

  it("a signed-in operator's sandbox phone still writes as a customer and reads what the business sent", async () => {
    const seeded = await closed.app.seed({ orgName: "Closed simulator" });
    const operator = await addOperator(closed.app, seeded, "developer");
    const base = `/projects/${seeded.projectId}`;
    const project = await dash(closed.app, "GET", `${base}/projects/${seeded.projectId}`, { as: operator });
    const tester = "+15550003333";
    const act = (text: string) =>
      dash(closed.app, "POST", `${base}/sandbox/customer-messages`, {
        as: operator,
        body: { channel_id: SANDBOX_CHANNEL_ID, from: tester, type: "text", text },
      });
    const joined = await act(`join ${project.body.join_code}`);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body).toMatchObject({ object: "simulated_customer_message", webhook_status: 200 });
    await closed.settle(20);
    expect((await act("Hello from a closed simulator")).status).toBe(200);
    await closed.settle(20);

    const list = await dash(closed.app, "GET", `${base}/conversations`, { as: operator });
    expect(list.body.data).toHaveLength(1);
    const reply = await dash(closed.app, "POST", `${base}/messages`, {
      as: operator,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: list.body.data[0].id, text: "Reply to the phone" },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    await closed.settle(20);
    const inbox = await dash(closed.app, "GET", `${base}/sandbox/inbox?channel_id=${SANDBOX_CHANNEL_ID}&from=${encodeURIComponent(tester)}`, { as: operator });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(200);
    expect(inbox.body.data.map((m: { text: string }) => m.text)).toContain("Reply to the phone");
    // The same inbox stays closed to an anonymous caller.
    expect((await anonymous(closed, "GET", inboxPath(tester))).status).toBe(404);
    // Signed out, the dashboard refuses.
    expect((await dash(closed.app, "GET", `${base}/sandbox/inbox?channel_id=${SANDBOX_CHANNEL_ID}&from=${encodeURIComponent(tester)}`)).status).toBe(401);
    expect(await closed.app.db.select().from(messages).where(eq(messages.projectId, seeded.projectId))).not.toHaveLength(0);
  });
});

describe("an open simulator (outside production, or SVC_SIMULATOR_PUBLIC=true)", () => {
  it("serves its customer and control routes to anyone, as before", async () => {
    const inbox = await anonymous(open, "GET", inboxPath("+15550004444"));
    expect(inbox.status).toBe(200);
    expect(inbox.body).toMatchObject({ data: [] });
    const control = await anonymous(open, "GET", "/api/simulator/control/numbers/throughput?phone_number_id=1");
    expect(control.status).toBe(200);
    const sent = await open.customer({ from: "+15550005555", type: "text", text: "hello" });
    expect(sent.delivered_status).toBe(200);
  });
});
