import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { DRIZZLE_CONFIG, openDatabase, pgliteExtensions } from "@/lib/ports/db/open";
import { ensureReferenceData } from "@/lib/domain/organizations";
import { createJobQueue } from "@/lib/ports/queue";
import { captureTemplate, restoreTemplate } from "../support/pglite-reuse";

/**
 * The test harness hands each file its worker's PGlite put back as the template
 * (tests/support/pglite-reuse.ts). Whatever a file leaves behind, the next one must find exactly
 * what a fresh copy of the template holds: the same relations, the same rows, the same sequences.
 */

type Fingerprint = Record<string, string>;

async function fingerprint(client: PGlite): Promise<Fingerprint> {
  const { rows } = await client.query<{ schema: string; name: string; kind: string }>(
    `select n.nspname as schema, c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname not in ('pg_catalog', 'information_schema', 'svc_test_template_rows') and n.nspname not like 'pg\\_%' and c.relkind in ('r', 'p', 'S', 'v', 'm', 'i')
     order by 1, 2`,
  );
  const print: Fingerprint = {};
  for (const r of rows) {
    const name = `"${r.schema}"."${r.name}"`;
    if (r.kind === "r") {
      const { rows: content } = await client.query<{ n: number; digest: string | null }>(
        `select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as digest from only ${name} t`,
      );
      print[name] = `table ${content[0]!.n} ${content[0]!.digest}`;
    } else if (r.kind === "S") {
      const { rows: seq } = await client.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${name}`);
      print[name] = `sequence ${seq[0]!.last_value} ${seq[0]!.is_called}`;
    } else {
      print[name] = r.kind;
    }
  }
  const { rows: schemas } = await client.query<{ name: string }>(
    `select nspname as name from pg_namespace where nspname not in ('pg_catalog', 'information_schema', 'svc_test_template_rows') and nspname not like 'pg\\_%' order by 1`,
  );
  print.schemas = schemas.map((s) => s.name).join(",");
  return print;
}

let dump: Blob;
beforeAll(async () => {
  // Made here as global-setup makes the PGlite template, so this runs on either database.
  const handle = await openDatabase({ dataDir: "memory://" });
  await ensureReferenceData(handle.db);
  await (await createJobQueue(handle)).stop();
  dump = await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
  await handle.close();
});

const clients: PGlite[] = [];
async function fromTemplate(): Promise<PGlite> {
  const client = await PGlite.create({ loadDataDir: dump, extensions: await pgliteExtensions() });
  clients.push(client);
  return client;
}
afterAll(async () => {
  for (const client of clients) await client.close();
});

describe("a test file's database put back as the template", () => {
  it("holds the same relations, rows and sequences as a fresh copy, whatever the last file left", async () => {
    const fresh = await fingerprint(await fromTemplate());
    const reused = await fromTemplate();
    const template = await captureTemplate(reused);
    expect(await fingerprint(reused)).toEqual(fresh);

    // What a file leaves: rows in tables the template filled and in empty ones, a queue pg-boss made
    // a table for, jobs, a table and a schema of its own, a moved sequence, session state.
    const { drizzle } = await import("drizzle-orm/pglite");
    const db = drizzle(reused, DRIZZLE_CONFIG);
    const handle = { db: db as never, kind: "pglite" as const, close: async () => {} };
    await ensureReferenceData(handle.db);
    const plan = await reused.query<{ id: string }>("select id from plans limit 1");
    await reused.exec(`update plans set name = 'changed' where id = '${plan.rows[0]!.id}'`);
    await reused.exec("insert into organizations (id, name, plan_id) select 'org_leftover', 'Leftover', id from plans limit 1");
    const queue = await createJobQueue(handle);
    await queue.prepare();
    await queue.stop();
    await reused.exec("create table public.leftover (id int generated always as identity, v text); insert into leftover (v) values ('x')");
    await reused.exec("create schema leftover_schema; create table leftover_schema.t (x int)");
    await reused.exec("create sequence public.leftover_seq; select nextval('leftover_seq')");
    await reused.exec("select pg_advisory_lock(42); set statement_timeout = 1234; begin; insert into leftover (v) values ('open')");
    expect(await fingerprint(reused)).not.toEqual(fresh);

    await restoreTemplate(reused, template);
    expect(await fingerprint(reused)).toEqual(fresh);
    const session = await reused.query<{ timeout: string; locks: number }>(
      "select current_setting('statement_timeout') as timeout, (select count(*)::int from pg_locks where locktype = 'advisory') as locks",
    );
    expect(session.rows[0]).toEqual({ timeout: "0", locks: 0 });

    // And again, from what the first reset left.
    await reused.exec("insert into organizations (id, name, plan_id) select 'org_leftover_2', 'Leftover', id from plans limit 1");
    await restoreTemplate(reused, template);
    expect(await fingerprint(reused)).toEqual(fresh);
  });
});
