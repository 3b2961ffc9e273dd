import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import { createBroadcast, readyChannel, runUntil, write } from "../broadcasts/support";

/**
 * Issue 19's acceptance through the API: a registration link minted for the sandbox enrolls the
 * tester who sends it; once the project has its own number, links for three customers enroll them
 * there (reference and opt-in), a broadcast of an approved template reaches exactly those three and
 * its stats follow the status callbacks; erasing one contact leaves none of their data in any table.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ statusDelaysMs: { sent: 10, delivered: 20, read: 30 } });
});
afterAll(() => h?.close());

async function mint(key: string, reference: string) {
  const res = await h.app.call("POST", "/registration-intents", { key, body: { customer_reference: reference } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; token: string; mode: string; prefilled_message: string; whatsapp_number: string };
}

/** Every text column of every table, as one string per row: where a person's data could still hide. */
async function rowsMentioning(needle: string): Promise<string[]> {
  const tables = await h.app.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { table_name } of (tables as unknown as { rows?: { table_name: string }[] }).rows ?? (tables as unknown as { table_name: string }[])) {
    const hits = await h.app.db.execute(sql`select 1 from ${sql.identifier(table_name)} t where t::text like ${`%${needle}%`} limit 1`);
    const rows = (hits as unknown as { rows?: unknown[] }).rows ?? (hits as unknown as unknown[]);
    if (rows.length > 0) found.push(table_name);
  }
  return found;
}

describe("issue 19: registration links, a broadcast to the enrolled, erasure", () => {
  it("enrolls by link on the sandbox and on the own number, broadcasts to the enrolled, erases one completely", { timeout: 120_000 }, async () => {
    const seeded = await h.app.seed();
    // On the sandbox: the link joins the tester to the project.
    const test = await mint(seeded.key, "tester-1");
    expect(test.mode).toBe("test");
    await h.customer({ from: "15557770001", name: "Tess", type: "text", text: test.prefilled_message });
    await h.settle(20);
    const joined = (await h.app.call("GET", `/registration-intents/${test.id}`, { key: seeded.key })).body;
    expect(joined.status).toBe("COMPLETED");
    expect((await h.eventsOf(seeded.projectId, "participant.joined"))[0]!.payload).toMatchObject({ contact_reference: "tester-1" });

    // The project's own number: links are live now; three customers follow theirs.
    const { channel, template } = await readyChannel(h, seeded.key, "weekly_offer");
    // As connected with its phone_number (the templates helper leaves it out): links open this number.
    const [row] = await h.app.db.update(channels).set({ phoneNumber: "+15550009999" }).where(eq(channels.id, channel.id)).returning();
    const phoneNumberId = row!.providerSenderId!;
    const customers = ["15558880001", "15558880002", "15558880003"];
    for (const [i, from] of customers.entries()) {
      const link = await mint(seeded.key, `customer-${i}`);
      expect(link.mode).toBe("live");
      await h.customer({ sender_id: phoneNumberId, from, name: `Customer ${i}`, type: "text", text: `hello! ${link.token}` });
    }
    await h.settle(20);
    const contacts = (await h.app.call("GET", "/contacts?limit=100", { key: seeded.key })).body.data as {
      id: string;
      phone: string;
      reference_id: string;
      opt_in: { status: string } | null;
    }[];
    const enrolled = contacts.filter((c) => c.reference_id?.startsWith("customer-"));
    expect(enrolled).toHaveLength(3);
    expect(enrolled.every((c) => c.opt_in?.status === "active")).toBe(true);

    // A broadcast to the enrolled contacts (plus a number that never opted in: skipped).
    const broadcast = await createBroadcast(h, seeded.key, {
      name: "Weekly offer",
      channel_id: channel.id,
      template: { id: template.id },
      recipients: [...enrolled.map((c) => ({ contact_id: c.id, parameters: { "1": "friend" } })), { to: "+15559990001", parameters: { "1": "stranger" } }],
    });
    await write(h, seeded.key, `/broadcasts/${broadcast.id}/send`);
    await runUntil(h, seeded.key, broadcast.id, ["COMPLETED"]);
    await h.settle(60);
    const done = (await h.app.call("GET", `/broadcasts/${broadcast.id}`, { key: seeded.key })).body;
    expect(done.stats).toMatchObject({ total: 4, read: 3, skipped: 1, failed: 0 });
    for (const from of customers) expect(h.server.simulator.state.inbox(phoneNumberId, from)).toHaveLength(1);

    // Erasure: the first customer's data is gone from every table; the others' stays.
    const erased = enrolled.find((c) => c.reference_id === "customer-0")!;
    const res = await h.app.call("DELETE", `/contacts/${erased.id}`, { key: seeded.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: "contact", id: erased.id, deleted: true, erased: true });
    expect(res.body.deleted_data_types).toEqual(expect.arrayContaining(["profile", "messages", "opt_ins", "registration_intents"]));
    expect((await h.app.call("GET", `/contacts/${erased.id}`, { key: seeded.key })).status).toBe(404);
    await h.settle(20);
    expect(await rowsMentioning("15558880001")).toEqual([]);
    expect(await rowsMentioning("customer-0")).toEqual([]);
    expect(await rowsMentioning("15558880002")).not.toEqual([]);
  });
});
