import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { Seeded } from "../support/app";
import { untypedQueue } from "../support/queue";
import { startHarness, type Harness } from "../messages/support";
import { rowsOf, scanForNeedles, seedRichContact, type RichContact } from "./erase-support";

/**
 * Erasure and the job queue (issue 31, item 3): a job that failed on the contact's data left their
 * number, name and texts in pg-boss's tables (the failure's output held drizzle's "Failed query: …
 * params: …"). Two depths: a failure is stored as one line without the query or its parameters, and
 * DELETE /contacts/{id} scrubs the finished jobs that name the contact. Checked with a data-only dump
 * of every schema of the database.
 */
let h: Harness;
const FAILING_JOB = "test.fails-on-contact-data";

beforeAll(async () => {
  h = await startHarness();
  // A job whose handler runs a query carrying the contact's data that the database refuses: its
  // parameters are the number, the name and a text, and Postgres quotes the number in its own message.
  h.app.runtime.ports.queue.define<{ phone: string; name: string; text: string; contact_id: string }>(FAILING_JOB, { retryLimit: 0 }, async (data) => {
    await h.app.db.execute(sql`select ${data.phone}::int as n, ${data.name} as who, ${data.text} as said`);
  });
});
afterAll(async () => {
  await h?.close();
});

/** Every schema of the database but the system's. */
async function allSchemas(): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await h.app.db.execute(
      sql`select schema_name as name from information_schema.schemata where schema_name not in ('pg_catalog', 'information_schema', 'pg_toast') and schema_name not like 'pg_temp%' and schema_name not like 'pg_toast%'`,
    ),
  );
  return rows.map((r) => r.name);
}

async function jobsNamed(name: string) {
  return rowsOf<{ id: string; state: string; data: unknown; output: unknown }>(
    await h.app.db.execute(sql`select id, state, data, output from pgboss.job where name = ${name} order by created_on`),
  );
}

const erase = (seeded: Seeded, id: string) => h.app.call("DELETE", `/contacts/${id}`, { key: seeded.key });

async function failOnce(person: RichContact, text: string) {
  await untypedQueue(h.app.runtime.ports.queue).send(FAILING_JOB, { phone: `+${person.phone}`, name: person.name, text, contact_id: person.contactId });
  await h.settle(10);
}

describe("a failed job's stored output", () => {
  it("is one line without the query, its parameters or the database's quoted values", async () => {
    const seeded = await h.app.seed();
    const person = await seedRichContact(h, seeded, { flow: false });
    const text = `failing text ${person.phone}`;
    await failOnce(person, text);
    const [job] = (await jobsNamed(FAILING_JOB)).filter((j) => JSON.stringify(j.data).includes(person.contactId));
    expect(job!.state).toBe("failed");
    const output = JSON.stringify(job!.output);
    expect(output).toMatch(/"database error 22[0-9A-Z]{3}"/);
    for (const needle of [person.phone, person.name, text, "select", "params"]) expect(output).not.toContain(needle);
  });
});

describe("DELETE /contacts/{id} and the job queue", () => {
  it("leaves none of the contact's number, name or texts in any table of any schema, job rows included", async () => {
    const seeded = await h.app.seed();
    const sibling = await h.app.addProject(seeded);
    const person = await seedRichContact(h, seeded, { flow: false });
    const other = await seedRichContact(h, { ...seeded, projectId: sibling.projectId, key: sibling.key }, { flow: false });
    const text = `failing text ${person.phone}`;
    await failOnce(person, text);
    await failOnce(other, `other text ${other.phone}`);
    // What an earlier release stored for such a failure: drizzle's whole message, in a job that names the contact's message.
    const [message] = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.contactId, person.contactId)).limit(1);
    const legacy = `Failed query: insert into messages (content, recipient) values ($1, $2)\nparams: ${text},+${person.phone},${person.name}`;
    await h.app.db.execute(
      sql`insert into pgboss.job (name, data, state, output, completed_on) values (${FAILING_JOB}, ${JSON.stringify({ message_id: message!.id })}::jsonb, 'failed', ${JSON.stringify({ message: legacy })}::jsonb, now())`,
    );
    // A job still to run keeps its data: it needs it, and it names the contact by id only.
    await h.app.db.execute(
      sql`insert into pgboss.job (name, data, state, start_after) values (${FAILING_JOB}, ${JSON.stringify({ message_id: message!.id })}::jsonb, 'created', now() + interval '1 day')`,
    );
    const needles = [person.phone, person.name, text, ...person.needles];
    const schemas = await allSchemas();
    expect(schemas).toEqual(expect.arrayContaining(["public", "pgboss"]));
    expect((await scanForNeedles(h, needles, schemas)).some((hit) => hit.table.startsWith("pgboss."))).toBe(true);

    expect((await erase(seeded, person.contactId)).status).toBe(200);
    await h.settle(10);

    expect(await scanForNeedles(h, needles, schemas)).toEqual([]);
    const jobs = await jobsNamed(FAILING_JOB);
    const pending = jobs.find((j) => j.state === "created" && JSON.stringify(j.data).includes(message!.id));
    expect(pending?.data).toEqual({ message_id: message!.id });
    // The sibling project's person, and the job that failed on their data, are untouched.
    expect((await scanForNeedles(h, [other.phone, other.name], ["public"])).length).toBeGreaterThan(0);
    expect((await jobsNamed(FAILING_JOB)).some((j) => JSON.stringify(j.data).includes(other.phone))).toBe(true);
  }, 60_000);
});
