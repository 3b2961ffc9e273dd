import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { connectChannel, deliver, envelopeA, joinSandbox, setProjectRouting, startHarness, textA, type Harness } from "./harness";

/**
 * Where each event goes (events.deliver / events.route): spec Events → Delivery rule 5 (EXTERNAL only;
 * a dedicated channel's routing_mode overrides the project's), the shared sandbox following the
 * joined project, docs/spec/decisions.md AGENT, and the human handoff.
 */
let h: Harness;
type Payload = Record<string, any>;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

let counter = 0;
/** A project in its own organization with a dedicated PLATFORM_A channel (or none). */
async function projectWithChannel(channel: { routing_mode?: "NONE" | "FLOWS" | "EXTERNAL" } | null, projectMode?: "EXTERNAL" | "FLOWS" | "AGENT") {
  const seeded = await h.app.seed({ orgName: `Org ${++counter}` });
  if (projectMode) await setProjectRouting(h, seeded, projectMode);
  if (!channel) return { seeded, channelId: null, phoneNumberId: null };
  const phoneNumberId = `pn-routing-${counter}`;
  const created = await connectChannel(h, seeded, {
    platform: "PLATFORM_A",
    phone_number: `+1555444${String(counter).padStart(4, "0")}`,
    ...(channel.routing_mode ? { routing_mode: channel.routing_mode } : {}),
    credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-${counter}`, access_token: "t" },
  });
  return { seeded, channelId: created.id as string, phoneNumberId };
}

async function inboundRoute(seeded: Seeded, phoneNumberId: string, from: string) {
  const id = `wamid.ROUTE-${++counter}`;
  await deliver(h, "platform-a", textA(phoneNumberId, from, id, "route me"));
  const rows = (await h.eventsOf(seeded.projectId, "message.received")).filter((e) => (e.payload as Payload).messages[0].id === id);
  expect(rows, "the message is stored and its event recorded whatever the routing").toHaveLength(1);
  return { deliver: rows[0]!.deliver, route: rows[0]!.route };
}

describe("message.received routing", () => {
  it("sandbox + project EXTERNAL (default): delivered", async () => {
    const { seeded } = await projectWithChannel(null);
    await joinSandbox(h, seeded.projectId, "15554440001");
    expect(await inboundRoute(seeded, SANDBOX_PHONE_NUMBER_ID, "15554440001")).toEqual({ deliver: true, route: "external" });
  });

  it("sandbox follows the joined project: FLOWS → flows, AGENT without an ACTIVE agent → the service (external), back to EXTERNAL → external", async () => {
    const { seeded } = await projectWithChannel(null);
    await joinSandbox(h, seeded.projectId, "15554440002");
    await setProjectRouting(h, seeded, "FLOWS");
    expect(await inboundRoute(seeded, SANDBOX_PHONE_NUMBER_ID, "15554440002")).toEqual({ deliver: false, route: "flows" });
    // The thread's default owner is SERVICE until the channel has an ACTIVE agent (tests/agents/routing.test.ts has the agent's side).
    await setProjectRouting(h, seeded, "AGENT");
    expect(await inboundRoute(seeded, SANDBOX_PHONE_NUMBER_ID, "15554440002")).toEqual({ deliver: true, route: "external" });
    await setProjectRouting(h, seeded, "EXTERNAL");
    expect(await inboundRoute(seeded, SANDBOX_PHONE_NUMBER_ID, "15554440002")).toEqual({ deliver: true, route: "external" });
  });

  it("dedicated channel FLOWS under an EXTERNAL project: not delivered (flows)", async () => {
    const { seeded, phoneNumberId } = await projectWithChannel({ routing_mode: "FLOWS" });
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440003")).toEqual({ deliver: false, route: "flows" });
  });

  it("dedicated channel NONE: recorded only (none)", async () => {
    const { seeded, phoneNumberId } = await projectWithChannel({ routing_mode: "NONE" });
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440004")).toEqual({ deliver: false, route: "none" });
  });

  it("dedicated channel EXTERNAL under a FLOWS project: the channel wins (delivered)", async () => {
    const { seeded, phoneNumberId, channelId } = await projectWithChannel({ routing_mode: "EXTERNAL" }, "FLOWS");
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440005")).toEqual({ deliver: true, route: "external" });
    // And the other way round after a channel update.
    const patched = await h.app.call("PATCH", `/channels/${channelId}`, { key: seeded.key, body: { routing_mode: "FLOWS" } });
    expect(patched.status).toBe(200);
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440005")).toEqual({ deliver: false, route: "flows" });
  });

  it("a channel connected under a FLOWS project inherits FLOWS", async () => {
    const { seeded, phoneNumberId } = await projectWithChannel({}, "FLOWS");
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440006")).toEqual({ deliver: false, route: "flows" });
  });

  it("project AGENT with no ACTIVE agent on a channel that follows it: the thread is the service's, forwarded (external)", async () => {
    const { seeded, phoneNumberId } = await projectWithChannel({}, "AGENT");
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440007")).toEqual({ deliver: true, route: "external" });
  });

  it("project AGENT does not override a dedicated channel's own routing: FLOWS stays flows, NONE stays none", async () => {
    const flows = await projectWithChannel({ routing_mode: "FLOWS" }, "AGENT");
    expect(await inboundRoute(flows.seeded, flows.phoneNumberId!, "15554440010")).toEqual({ deliver: false, route: "flows" });
    const none = await projectWithChannel({ routing_mode: "NONE" }, "AGENT");
    expect(await inboundRoute(none.seeded, none.phoneNumberId!, "15554440011")).toEqual({ deliver: false, route: "none" });
  });

  it("handoff HUMAN_ACTIVE: message.received stored but not delivered (handoff); delivered again after handoff off", async () => {
    const { seeded, phoneNumberId } = await projectWithChannel({});
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440008")).toEqual({ deliver: true, route: "external" });
    const [conversation] = (await h.app.call("GET", "/conversations", { key: seeded.key })).body.data;
    expect((await h.app.call("POST", `/conversations/${conversation.id}/handoff`, { key: seeded.key, body: { enabled: true } })).status).toBe(200);
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440008")).toEqual({ deliver: false, route: "handoff" });
    expect((await h.app.call("POST", `/conversations/${conversation.id}/handoff`, { key: seeded.key, body: { enabled: false } })).status).toBe(200);
    expect(await inboundRoute(seeded, phoneNumberId!, "15554440008")).toEqual({ deliver: true, route: "external" });
  });
});

describe("other events", () => {
  it("participant.joined and call.event are delivered", async () => {
    const { seeded } = await projectWithChannel(null);
    await joinSandbox(h, seeded.projectId, "15554440009");
    const joined = await h.eventsOf(seeded.projectId, "participant.joined");
    expect(joined.map((e) => [e.deliver, e.route])).toEqual([[true, "external"]]);

    const call = envelopeA(
      SANDBOX_PHONE_NUMBER_ID,
      { calls: [{ id: "wacid.ROUTING-1", from: "15554440009", to: "15550000000", event: "connect", timestamp: String(Math.floor(Date.now() / 1000)) }] },
      "calls",
    );
    await deliver(h, "platform-a", call);
    const calls = await h.eventsOf(seeded.projectId, "call.event");
    expect(calls.map((e) => [e.deliver, e.route])).toEqual([[true, "external"]]);
  });

  it("contact.identity.updated is delivered", async () => {
    const { seeded, phoneNumberId } = await projectWithChannel({});
    await inboundRoute(seeded, phoneNumberId!, "15554440010");
    const system = envelopeA(phoneNumberId!, {
      messages: [
        {
          from: "15554440010",
          id: "wamid.ROUTING-SYSTEM",
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: "system",
          system: { type: "user_changed_number", body: "changed", wa_id: "15554440011" },
        },
      ],
    });
    await deliver(h, "platform-a", system);
    const updates = await h.eventsOf(seeded.projectId, "contact.identity.updated");
    expect(updates.map((e) => e.deliver)).toEqual([true]);
  });
});
