import { spawnSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import postgres from "postgres";
import { databaseFailureOf, isDatabaseUnavailable, isDeadSocketWrite } from "@/lib/ports/db/postgres-guard";
import { failureOf } from "@/lib/api/respond";
import { SvcError } from "@/lib/errors";
import { OutboundNetworkError } from "@/lib/ports/net/safe-request";

const template = inject("dbTemplate");

function runChild(url: string, mode: "reserved" | "transaction") {
  return spawnSync(process.execPath, ["--import", "tsx", "tests/support/fixtures/dead-socket-write.ts", url, mode], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, NODE_OPTIONS: "" },
  });
}

describe("postgres-js dead-socket write (porsager/postgres#1154, #1208; patched in patches/postgres+3.4.9.patch)", () => {
  it("a query on a reserved connection whose backend died is rejected, and the process lives", ({ skip }) => {
    if (template.kind !== "postgres") skip("needs a real Postgres server to terminate a backend");
    const url = template.kind === "postgres" ? template.adminUrl : "";
    const child = runChild(url, "reserved");
    expect(child.stderr).not.toContain("reading 'write'");
    expect(child.stdout).toContain("query on the dead connection rejected: CONNECTION_CLOSED");
    expect(child.stdout).toContain("pool answers: 3");
    expect(child.stdout).toContain("still alive");
    expect(child.status).toBe(0);
  }, 60_000);

  it("a transaction whose backend died leaves its pooled connection able to reconnect", ({ skip }) => {
    if (template.kind !== "postgres") skip("needs a real Postgres server to terminate a backend");
    const url = template.kind === "postgres" ? template.adminUrl : "";
    const child = runChild(url, "transaction");
    expect(child.stderr).not.toContain("reading 'write'");
    expect(child.stdout).toContain("transaction rejected: CONNECTION_CLOSED");
    // Unpatched: "rejected: CONNECT_TIMEOUT" (the reconnect's startup message stayed buffered).
    expect(child.stdout).toContain("next query on the pool: answered 2");
    expect(child.status).toBe(0);
  }, 60_000);

  it("recognises only that defect's signature", () => {
    const defect = new TypeError("Cannot read properties of null (reading 'write')");
    defect.stack = `${defect.message}\n    at Immediate.nextWrite (file:///app/node_modules/postgres/src/connection.js:255:22)`;
    expect(isDeadSocketWrite(defect)).toBe(true);
    const elsewhere = new TypeError("Cannot read properties of null (reading 'write')");
    elsewhere.stack = `${elsewhere.message}\n    at write (file:///app/lib/domain/x.ts:1:1)`;
    expect(isDeadSocketWrite(elsewhere)).toBe(false);
    expect(isDeadSocketWrite(new Error("reading 'write' nextWrite postgres"))).toBe(false);
  });
});

describe("isDatabaseUnavailable", () => {
  const yes: [string, unknown][] = [
    ["connection refused", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["postgres-js closed", Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" })],
    ["connect timeout", Object.assign(new Error("write CONNECT_TIMEOUT"), { code: "CONNECT_TIMEOUT" })],
    ["admin shutdown", Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })],
    ["starting up", Object.assign(new Error("the database system is starting up"), { code: "57P03" })],
    ["statement timeout", Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" })],
    ["connection exception class", Object.assign(new Error("connection failure"), { code: "08006" })],
    ["wrapped by drizzle", new Error("Failed query: select 1", { cause: Object.assign(new Error("x"), { code: "ECONNRESET" }) })],
  ];
  for (const [name, error] of yes) it(`${name} → unavailable`, () => expect(isDatabaseUnavailable(error)).toBe(true));

  const no: [string, unknown][] = [
    ["a unique violation", Object.assign(new Error("duplicate key"), { code: "23505" })],
    ["a plain error", new Error("boom")],
    ["our own error", new SvcError("not_found", "No message.")],
    ["an outbound (customer server) refusal", new OutboundNetworkError("ECONNREFUSED", "connect ECONNREFUSED")],
    ["nothing", null],
  ];
  for (const [name, error] of no) it(`${name} → not unavailable`, () => expect(isDatabaseUnavailable(error)).toBe(false));
});

describe("databaseFailureOf: which way the database failed, for the caller's words", () => {
  const timedOut = Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });

  it("a statement past its time is timed_out, a refused connection unreachable, anything else null", () => {
    expect(databaseFailureOf(timedOut)).toBe("timed_out");
    expect(databaseFailureOf(new Error("Failed query: select 1", { cause: timedOut }))).toBe("timed_out");
    expect(databaseFailureOf(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe("unreachable");
    expect(databaseFailureOf(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBeNull();
  });

  it("the 503 says the database did not answer in time, not that it is unreachable", async () => {
    const answer = failureOf(timedOut, "req_test");
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: "database_unavailable", retryable: true, retry_after: 1, request_id: "req_test" });
    expect(answer.body.message).toMatch(/^The database did not answer in time .*nothing was done\. Retry after Retry-After seconds/);
    const refused = failureOf(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "req_test");
    expect(refused.body.message).toMatch(/^The database is unreachable right now/);
  });

  it("postgres-js's own error for a real statement timeout is timed_out", async ({ skip }) => {
    if (template.kind !== "postgres") skip("needs a real Postgres server (PGlite has no statement timeout)");
    const url = template.kind === "postgres" ? template.adminUrl : "";
    const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { statement_timeout: 50 } });
    try {
      const error = await sql`select pg_sleep(2)`.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: "57014" });
      expect(databaseFailureOf(error)).toBe("timed_out");
      expect(failureOf(error, "req_test").body.message).toMatch(/did not answer in time/);
    } finally {
      await sql.end();
    }
  });
});
