import { and, eq, inArray, sql } from "drizzle-orm";
import { automations } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import type { AutomationEntry } from "./definition";
import type { AutomationRow } from "./runs";

/**
 * The definition writes (docs/spec/decisions.md "Automations (routing FLOWS)"): config apply calls them
 * inside its transaction (`ctx.db` is it), and so do the module's own API verbs (edit.ts, crud.ts), so
 * one module knows every way an automation row changes.
 */

export interface AutomationPlacement {
  entry: AutomationEntry;
  /** Config order: the order that decides between two matching KEYWORD automations. */
  position: number;
}

/** New automations, in one insert; stored active (even where routing keeps them silent) unless the entry says otherwise. */
export async function createAutomations(ctx: Ctx, placements: readonly AutomationPlacement[]): Promise<void> {
  if (!placements.length) return;
  await ctx.db.insert(automations).values(placements.map((placement) => newRow(ctx, placement)));
}

function newRow(ctx: Ctx, { entry, position }: AutomationPlacement): typeof automations.$inferInsert {
  return {
    id: newId("automation", ctx.now.getTime()),
    projectId: ctx.project.id,
    key: entry.key,
    name: entry.name,
    trigger: entry.trigger,
    steps: entry.steps,
    active: entry.active ?? true,
    position,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

/** One new automation (the API's create), at its place in config order. */
export async function insertAutomation(ctx: Ctx, placement: AutomationPlacement): Promise<AutomationRow> {
  const [row] = await ctx.db.insert(automations).values(newRow(ctx, placement)).returning();
  return row!;
}

/** A changed definition: the entry's fields replace the row's (`active` only when the entry gives it). */
export async function redefineAutomation(ctx: Ctx, id: string, { entry, position }: AutomationPlacement): Promise<void> {
  await ctx.db
    .update(automations)
    .set({
      name: entry.name,
      trigger: entry.trigger,
      steps: entry.steps,
      ...(entry.active !== undefined ? { active: entry.active } : {}),
      position,
      updatedAt: ctx.now,
    })
    .where(and(eq(automations.projectId, ctx.project.id), eq(automations.id, id)));
}

/** A shift from a deletion or insertion before it: not a change anyone asked for, so updated_at stays. */
export async function moveAutomation(ctx: Ctx, id: string, position: number): Promise<void> {
  await ctx.db
    .update(automations)
    .set({ position })
    .where(and(eq(automations.projectId, ctx.project.id), eq(automations.id, id)));
}

/**
 * Shifts after an API write moved, added or removed one: each of these automations to its position, in
 * one statement (updated_at stays, as moveAutomation's does).
 */
export async function shiftAutomations(ctx: Ctx, moves: ReadonlyArray<{ id: string; position: number }>): Promise<void> {
  if (!moves.length) return;
  const position = sql<number>`case ${automations.id} ${sql.join(
    moves.map((move) => sql`when ${move.id} then ${move.position}::integer`),
    sql` `,
  )} end`;
  await ctx.db
    .update(automations)
    .set({ position })
    .where(
      and(
        eq(automations.projectId, ctx.project.id),
        inArray(
          automations.id,
          moves.map((move) => move.id),
        ),
      ),
    );
}

/** The project's automations of these ids, in one statement (their runs go with them: foreign key cascade). */
export async function deleteAutomations(ctx: Ctx, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await ctx.db.delete(automations).where(and(eq(automations.projectId, ctx.project.id), inArray(automations.id, [...ids])));
}

/** Each automation's position, by id: what a reordering compares against. */
export async function automationPositions(ctx: Ctx): Promise<Map<string, number>> {
  const rows = await ctx.db.select({ id: automations.id, position: automations.position }).from(automations).where(eq(automations.projectId, ctx.project.id));
  return new Map(rows.map((row) => [row.id, row.position]));
}
