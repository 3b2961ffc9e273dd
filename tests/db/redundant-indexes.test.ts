import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { executeRows } from "@/lib/ports/db/bulk";
import { createTestApp, type TestApp } from "../support/app";

/**
 * Every index is written on each insert, and on each update that cannot stay on its page: one whose
 * columns, order, predicate and expressions are another's of the same table answers no query the other
 * does not, and only costs writes (contacts had its primary key twice until migration 0027, written on
 * every contact an inbound message made). The migrated schema has no such pair.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("the migrated schema's indexes", () => {
  it("has no two indexes of a table that are the same index", async () => {
    const rows = await executeRows<{ table: string; indexes: string }>(
      app.db,
      sql`select c.relname as "table", string_agg(i.relname, ', ' order by i.relname) as indexes
          from pg_index x
          join pg_class c on c.oid = x.indrelid
          join pg_class i on i.oid = x.indexrelid
          join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public'
          group by c.relname, i.relam, x.indkey::text, x.indclass::text, x.indoption::text,
            coalesce(pg_get_expr(x.indexprs, x.indrelid), ''), coalesce(pg_get_expr(x.indpred, x.indrelid), '')
          having count(*) > 1`,
    );
    expect(rows).toEqual([]);
  });

  it("still has the contact list's index: the primary key on (project_id, id)", async () => {
    const rows = await executeRows<{ name: string; definition: string }>(
      app.db,
      sql`select indexname as name, indexdef as definition from pg_indexes where schemaname = 'public' and tablename = 'contacts' order by indexname`,
    );
    expect(rows.map((row) => row.name)).toEqual(["contacts_name_trgm", "contacts_phone_trgm", "contacts_project_id_id_pk"]);
    expect(rows.find((row) => row.name === "contacts_project_id_id_pk")?.definition).toContain(
      "UNIQUE INDEX contacts_project_id_id_pk ON public.contacts USING btree (project_id, id)",
    );
  });
});
