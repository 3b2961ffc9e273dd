import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/ports/db/types";
import { invalidRequest } from "@/lib/errors";

export interface PageParams {
  limit: number;
  starting_after?: string | undefined;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

type TableWithId = PgTable & { id: PgColumn };

/**
 * Newest-first keyset paging over a table whose ids are time-sortable. `scope` is the tenant filter
 * (project or organization) and is applied to the cursor check too, so another tenant's id is an
 * unknown cursor, not a way to probe for existence. `filter` (the caller's list filters) narrows the
 * rows only: the cursor is any item of the tenant's list, so a page boundary whose item stopped
 * matching since (a handoff turned off, a renamed contact) still pages on from where it was.
 */
export async function paginate<T extends TableWithId>(
  db: Db,
  table: T,
  scope: SQL | undefined,
  params: PageParams,
  filter?: SQL,
): Promise<Page<T["$inferSelect"]>> {
  let where = and(scope, filter);
  if (params.starting_after) {
    const [cursor] = await db
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(scope, eq(table.id, params.starting_after)))
      .limit(1);
    if (!cursor) {
      throw invalidRequest(`starting_after '${params.starting_after}' is not an item of this list.`, {
        starting_after: ["Unknown cursor: pass the id of an item from a previous page of this list."],
      });
    }
    where = and(scope, filter, lt(table.id, params.starting_after));
  }
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(desc(table.id))
    .limit(params.limit + 1)) as T["$inferSelect"][];
  return { data: rows.slice(0, params.limit), has_more: rows.length > params.limit };
}
