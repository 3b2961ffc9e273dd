import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { expectError, expectHandlerHeaders } from "./support/wire";
import { addOperator, dash } from "./dashboard/support";

/**
 * A project key changes only its own project's channels (docs/api-decisions.md "Conversation filters
 * and channel disconnect"): a sibling project of the same organization still sees the channel, but its
 * key's writes (routing, disconnect) answer 404 like any other project's id. The organization's owners
 * and admins keep managing every channel of the organization from the dashboard.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

let serial = 0;
/** An organization with a project whose own number is a connected dedicated channel, and a sibling project. */
async function twoProjects(): Promise<{ owner: Seeded; sibling: { projectId: string; key: string }; channelId: string }> {
  serial += 1;
  const owner = await app.seed({ orgName: `Sibling writes ${serial}` });
  const sender = `pn-sibling-${Date.now().toString(36)}-${serial}`;
  const connected = await app.call("POST", "/channels", {
    key: owner.key,
    body: {
      platform: "PLATFORM_A",
      phone_number: "+14155550123",
      routing_mode: "EXTERNAL",
      credentials: { phone_number_id: sender, business_account_id: `waba-${sender}`, access_token: "EAAG-token" },
    },
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  const sibling = await app.addProject(owner, "Sibling");
  return { owner, sibling, channelId: connected.body.id as string };
}

async function channelRow(id: string) {
  const [row] = await app.db.select().from(channels).where(eq(channels.id, id));
  return row!;
}

describe("a sibling project's key on a channel linked to another project", () => {
  it("reads it, but PATCH (routing) and DELETE (disconnect) answer 404 as for an unknown id, and nothing changes", async () => {
    const { sibling, channelId } = await twoProjects();
    expect((await app.call("GET", `/channels/${channelId}`, { key: sibling.key })).status).toBe(200);

    const routing = await app.call("PATCH", `/channels/${channelId}`, { key: sibling.key, body: { routing_mode: "NONE" } });
    expectError(routing, 404, "not_found");
    expectHandlerHeaders(routing);
    const disconnect = await app.call("DELETE", `/channels/${channelId}`, { key: sibling.key });
    expectError(disconnect, 404, "not_found");
    // Indistinguishable from an unknown id.
    const unknown = await app.call("DELETE", "/channels/ch_00000000000000000000000000", { key: sibling.key });
    expect(disconnect.body.message.replace(channelId, "ID")).toBe(unknown.body.message.replace("ch_00000000000000000000000000", "ID"));

    expect(await channelRow(channelId)).toMatchObject({ status: "connected", routingMode: "EXTERNAL", credentialsSealed: expect.any(String) });
  });

  it("the channel's own project's key still changes its routing and disconnects it", async () => {
    const { owner, channelId } = await twoProjects();
    const routing = await app.call("PATCH", `/channels/${channelId}`, { key: owner.key, body: { routing_mode: "NONE" } });
    expect(routing.status, JSON.stringify(routing.body)).toBe(200);
    expect(routing.body.routing_mode).toBe("NONE");
    const disconnect = await app.call("DELETE", `/channels/${channelId}`, { key: owner.key });
    expect(disconnect.status).toBe(200);
    expect(disconnect.body.status).toBe("disconnected");
  });
});

describe("the dashboard: organization-level channel management", () => {
  it("an owner or admin working in the sibling project changes the channel's routing and disconnects it", async () => {
    const { owner, sibling, channelId } = await twoProjects();
    const admin = await addOperator(app, owner, "admin");
    const routing = await dash(app, "PATCH", `/projects/${sibling.projectId}/channels/${channelId}`, { as: admin, body: { routing_mode: "FLOWS" } });
    expect(routing.status, JSON.stringify(routing.body)).toBe(200);
    expect(routing.body.routing_mode).toBe("FLOWS");
    const orgOwner = await addOperator(app, owner, "owner");
    const disconnect = await dash(app, "DELETE", `/projects/${sibling.projectId}/channels/${channelId}`, { as: orgOwner });
    expect(disconnect.status, JSON.stringify(disconnect.body)).toBe(200);
    expect(disconnect.body.status).toBe("disconnected");
  });

  it("a developer working in the sibling project gets the key's answer: 404, nothing changes", async () => {
    const { owner, sibling, channelId } = await twoProjects();
    const developer = await addOperator(app, owner, "developer");
    const routing = await dash(app, "PATCH", `/projects/${sibling.projectId}/channels/${channelId}`, { as: developer, body: { routing_mode: "NONE" } });
    expectError(routing, 404, "not_found");
    expectError(await dash(app, "DELETE", `/projects/${sibling.projectId}/channels/${channelId}`, { as: developer }), 404, "not_found");
    // In the channel's own project the same developer may.
    expect((await dash(app, "PATCH", `/projects/${owner.projectId}/channels/${channelId}`, { as: developer, body: { routing_mode: "NONE" } })).status).toBe(
      200,
    );
    expect(await channelRow(channelId)).toMatchObject({ status: "connected", routingMode: "NONE" });
  });
});
