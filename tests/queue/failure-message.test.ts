import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobFailureMessage } from "@/lib/ports/queue/failure";
import { rowsOf } from "../contacts/erase-support";
import { createTestApp, type TestApp } from "../support/app";
import { untypedQueue } from "../support/queue";

/**
 * What a failed job's row keeps (issue 31, item 3): one line, never the query's parameters or the
 * values the database quotes. tests/contacts/erase-queue.test.ts covers a job drained by tests; here
 * the workers' own path (pump.ts) and the error shapes of both drivers.
 */
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("jobFailureMessage", () => {
  it("keeps a postgres-js error's SQLSTATE and schema names, not its message", () => {
    const driver = Object.assign(new Error('value "+15551234567" is out of range for type integer'), {
      severity: "ERROR",
      code: "22003",
      table_name: "contacts",
      column_name: "phone",
    });
    const wrapped = Object.assign(new Error("Failed query: select $1::int\nparams: +15551234567"), { cause: driver });
    expect(jobFailureMessage(wrapped)).toBe("database error 22003 (table contacts, column phone)");
  });

  it("keeps a unique violation's constraint (PGlite's field names)", () => {
    const driver = Object.assign(new Error("duplicate key value violates unique constraint"), {
      severity: "ERROR",
      code: "23505",
      constraint: "contacts_pkey",
    });
    expect(jobFailureMessage(driver)).toBe("database error 23505 (constraint contacts_pkey)");
  });

  it("keeps the first line of any other error, and drops a quoted query", () => {
    expect(jobFailureMessage(new Error("provider answered 503\nbody: Ana +15551234567"))).toBe("provider answered 503");
    expect(jobFailureMessage(new Error("Inbound webhook iw_1: Failed query: insert into messages values ($1)\nparams: hello Ana"))).toBe(
      "Inbound webhook iw_1: database error (query failed)",
    );
    expect(jobFailureMessage("plain")).toBe("plain");
    expect(jobFailureMessage(new Error("x".repeat(1000))).length).toBeLessThanOrEqual(300);
  });
});

describe("a job that fails under the workers", () => {
  it("is stored with the one line, not the query's parameters", async () => {
    const queue = untypedQueue(app.runtime.ports.queue);
    let ran = false;
    queue.define<{ phone: string }>("test.worker-fails", { retryLimit: 0 }, async (data) => {
      ran = true;
      await app.db.execute(sql`select ${data.phone}::int`);
    });
    await queue.prepare();
    await queue.send("test.worker-fails", { phone: "+15559876543" });
    await queue.startWorkers({ pollingIntervalSeconds: 0.2 });
    const deadline = Date.now() + 20_000;
    let output: unknown = null;
    while (Date.now() < deadline) {
      const [row] = rowsOf<{ state: string; output: unknown }>(
        await app.db.execute(sql`select state, output from pgboss.job where name = 'test.worker-fails'`),
      );
      if (row?.state === "failed") {
        output = row.output;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(ran).toBe(true);
    expect(output).toEqual({ message: expect.stringMatching(/^database error 22[0-9A-Z]{3}$/) });
  });
});
