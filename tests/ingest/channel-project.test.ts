import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { createProjectRow } from "@/lib/domain/projects";
import { createApiKey } from "@/lib/domain/keys";
import { startHarness, type Harness } from "../messages/support";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

async function inbound(phoneNumberId: string, from: string, id: string, text: string) {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "waba",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550001111", phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: "Lee" }, wa_id: from }],
              messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
  const res = await fetch(`${h.server.url}/api/providers/platform-a/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(simulatorAppSecret("PLATFORM_A"), body) },
    body,
  });
  expect(res.status).toBe(200);
}

describe("inbound goes to the project that connected the channel", () => {
  it("a project's second channel, and sibling projects with their own channels in one organization", async () => {
    const seeded = await h.app.seed();
    const connect = (key: string, id: string) =>
      h.app.call("POST", "/channels", {
        key,
        body: { platform: "PLATFORM_A", credentials: { phone_number_id: id, business_account_id: `waba${id}`, access_token: "t" } },
      });
    expect((await connect(seeded.key, "5550001")).status).toBe(200);
    expect((await connect(seeded.key, "5550002")).status).toBe(200);
    const sibling = await createProjectRow(h.app.db, seeded.orgId, { name: "Sibling" }, h.app.clock.now());
    const { value: siblingKey } = await createApiKey(h.app.db, { organizationId: seeded.orgId, projectId: sibling.id, kind: "secret", scopes: ["*"] });
    expect((await connect(siblingKey, "5550003")).status).toBe(200);

    await inbound("5550002", "14155550100", "wamid.SECOND-CHANNEL-1", "to the second channel");
    await inbound("5550003", "14155550101", "wamid.SIBLING-CHANNEL-1", "to the sibling");
    await h.settle(10);

    const mine = await h.app.call("GET", "/conversations", { key: seeded.key });
    const theirs = await h.app.call("GET", "/conversations", { key: siblingKey });
    expect(mine.body.data.map((c: { phone: string }) => c.phone)).toEqual(["+14155550100"]);
    expect(theirs.body.data.map((c: { phone: string }) => c.phone)).toEqual(["+14155550101"]);
    // No routing warning for a channel that now has a project to route to.
    const channels = await h.app.call("GET", "/channels", { key: seeded.key });
    const second = channels.body.data.find(
      (c: { id: string; routing_warning: string | null }) => c.id !== "ch_sandbox" && c.routing_warning?.includes("not the channel of any project"),
    );
    expect(second).toBeUndefined();
  });
});
