import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { CONTACT_ERASE_FILES_JOB } from "@/lib/domain/contacts/erase-files";
import { startHarness, type Harness } from "../messages/support";
import { rowsOf, seedRichContact } from "./erase-support";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

async function jobStates(): Promise<string[]> {
  const result = await h.app.db.execute<{ state: string }>(sql`select state from pgboss.job where name = ${CONTACT_ERASE_FILES_JOB} order by created_on`);
  return rowsOf<{ state: string }>(result).map((r) => r.state);
}

describe("contacts.erase-files", () => {
  it("a storage outage leaves the erasure committed; the retried job deletes the files once storage is back", async () => {
    const acme = await h.app.seed();
    const person = await seedRichContact(h, acme, { flow: false });
    expect(person.mediaKeys.length).toBeGreaterThan(0);
    const storage = h.app.runtime.ports.storage;
    const realDelete = storage.delete.bind(storage);
    storage.delete = async () => {
      throw new Error("storage unreachable");
    };
    try {
      const res = await h.app.call("DELETE", `/contacts/${person.contactId}`, { key: acme.key });
      expect(res.status).toBe(200);
      expect(res.body.deleted_data_types).toContain("media");
      await h.app.runtime.ports.queue.drain();
      expect(await jobStates()).toEqual(["retry"]);
      for (const key of person.mediaKeys) expect(await storage.stat(key)).not.toBeNull();
      // The database side is done regardless: the contact is gone.
      expect((await h.app.call("GET", `/contacts/${person.contactId}`, { key: acme.key })).status).toBe(404);
    } finally {
      storage.delete = realDelete;
    }
    await h.app.db.execute(sql`update pgboss.job set start_after = now() where name = ${CONTACT_ERASE_FILES_JOB} and state = 'retry'`);
    await h.app.runtime.ports.queue.drain();
    expect(await jobStates()).toEqual(["completed"]);
    for (const key of person.mediaKeys) expect(await storage.stat(key)).toBeNull();
  });
});
