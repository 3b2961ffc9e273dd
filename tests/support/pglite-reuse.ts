import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import type { Db, DatabaseHandle } from "@/lib/ports/db/types";
import { DRIZZLE_CONFIG, pgliteExtensions } from "@/lib/ports/db/open";

/**
 * One embedded PGlite per test worker, handed to each file as the migrated template it was loaded
 * from. Starting PGlite from the template's dump took a second of CPU per file (a tenth of the
 * suite's time on PGlite); putting the template's contents back takes a few milliseconds.
 *
 * "As the template" is checked, not assumed: what a file may leave behind is rows, relations that
 * did not exist (pg-boss makes a table per queue), moved sequences and session state (advisory locks,
 * settings, temp tables). Each is put back here, and tests/db/test-database-reset.test.ts compares a
 * reset database with a fresh copy of the template.
 */

/** Where the template's rows are kept while files run (a schema no migration or test uses). */
const KEEP = "svc_test_template_rows";
const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema', '${KEEP}') and n.nspname not like 'pg\\_%'`;

interface Template {
  /** Every table of the template as "schema"."name" (quoted). */
  tables: string[];
  /** The tables that held rows (a partition's rows under the partition), quoted → their copy. */
  copies: Map<string, string>;
  relations: Set<string>;
  schemas: Set<string>;
  sequences: { name: string; value: string; called: boolean }[];
}

let shared: { client: PGlite; template: Template; dumpFile: string; inUse: boolean } | null = null;

/** A database with the template's contents: this worker's PGlite put back as it was, or a new one. */
export async function templatePglite(dumpFile: string, prime: (handle: DatabaseHandle) => Promise<void>): Promise<DatabaseHandle> {
  if (shared && (shared.client.closed || shared.inUse || shared.dumpFile !== dumpFile)) {
    // Closed by a test, or a second app in one file: that one gets a PGlite of its own.
    if (shared.inUse) return ownPglite(dumpFile);
    shared = null;
  }
  if (!shared) {
    const client = await loadTemplate(dumpFile);
    // What every file would otherwise make again (pg-boss's queues) becomes part of the template.
    await prime({ ...handleOf(client), close: async () => {} });
    shared = { client, template: await captureTemplate(client), dumpFile, inUse: false };
  } else {
    await restoreTemplate(shared.client, shared.template);
  }
  const current = shared;
  current.inUse = true;
  return {
    ...handleOf(current.client),
    close: async () => {
      current.inUse = false;
    },
  };
}

function handleOf(client: PGlite): Omit<DatabaseHandle, "close"> {
  return { db: drizzle(client, DRIZZLE_CONFIG) as unknown as Db, kind: "pglite" };
}

async function ownPglite(dumpFile: string): Promise<DatabaseHandle> {
  const client = await loadTemplate(dumpFile);
  return { ...handleOf(client), close: () => client.close() };
}

async function loadTemplate(dumpFile: string): Promise<PGlite> {
  return PGlite.create({ loadDataDir: new Blob([fs.readFileSync(dumpFile)]), extensions: await pgliteExtensions() });
}

const quoted = (schemaName: string, name: string) => `"${schemaName.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`;

async function relationsOf(client: PGlite): Promise<{ schema: string; name: string; kind: string }[]> {
  const { rows } = await client.query<{ schema: string; name: string; kind: string }>(
    `select n.nspname as schema, c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${USER_SCHEMAS}`,
  );
  return rows;
}

async function schemasOf(client: PGlite): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`select n.nspname as name from pg_namespace n where ${USER_SCHEMAS}`);
  return rows.map((r) => r.name);
}

export async function captureTemplate(client: PGlite): Promise<Template> {
  const relations = await relationsOf(client);
  const tables = relations.filter((r) => r.kind === "r" || r.kind === "p");
  await client.exec(`create schema ${KEEP}`);
  const copies = new Map<string, string>();
  for (const [i, table] of tables.entries()) {
    const name = quoted(table.schema, table.name);
    const { rows } = await client.query<{ any: boolean }>(`select exists (select 1 from only ${name}) as any`);
    if (!rows[0]!.any) continue;
    const copy = `${KEEP}.t${i}`;
    await client.exec(`create table ${copy} as select * from only ${name}`);
    copies.set(name, copy);
  }
  const sequences: Template["sequences"] = [];
  for (const sequence of relations.filter((r) => r.kind === "S")) {
    const name = quoted(sequence.schema, sequence.name);
    const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${name}`);
    sequences.push({ name, value: rows[0]!.last_value, called: rows[0]!.is_called });
  }
  return {
    tables: tables.map((t) => quoted(t.schema, t.name)),
    copies,
    relations: new Set(relations.map((r) => quoted(r.schema, r.name))),
    schemas: new Set(await schemasOf(client)),
    sequences,
  };
}

export async function restoreTemplate(client: PGlite, template: Template): Promise<void> {
  // Session state first: a file may end with a transaction open, locks held or settings changed.
  await client.exec("rollback; discard all;").catch(() => client.exec("discard all"));
  const extraSchemas = (await schemasOf(client)).filter((name) => !template.schemas.has(name));
  const extraTables = (await relationsOf(client)).filter(
    (r) => (r.kind === "r" || r.kind === "p" || r.kind === "S" || r.kind === "v" || r.kind === "m") && !template.relations.has(quoted(r.schema, r.name)),
  );
  const statements: string[] = [];
  for (const name of extraSchemas) statements.push(`drop schema "${name.replaceAll('"', '""')}" cascade`);
  // Tables before sequences: dropping a table drops the sequences its columns own.
  extraTables.sort((a, b) => Number(a.kind === "S") - Number(b.kind === "S"));
  for (const r of extraTables) {
    if (extraSchemas.includes(r.schema)) continue;
    const kind = r.kind === "S" ? "sequence" : r.kind === "v" ? "view" : r.kind === "m" ? "materialized view" : "table";
    statements.push(`drop ${kind} if exists ${quoted(r.schema, r.name)} cascade`);
  }
  statements.push(`truncate ${template.tables.join(", ")} cascade`);
  for (const [table, copy] of template.copies) statements.push(`insert into ${table} overriding system value select * from ${copy}`);
  for (const s of template.sequences) statements.push(`select setval('${s.name.replaceAll("'", "''")}', ${s.value}, ${s.called})`);
  await client.exec(`begin; ${statements.join(";\n")}; commit;`);
}
