import { and, count, eq, ne, sql } from "drizzle-orm";
import { projects, sandboxParticipants } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";

const JOIN = /^\s*join\s+([a-z0-9-]{4,64})\s*$/i;

export function joinCodeIn(text: string | null): string | null {
  const match = text ? JOIN.exec(text) : null;
  return match ? match[1]!.toLowerCase() : null;
}

export type JoinOutcome =
  { kind: "joined"; project: ProjectRow; participantId: string; alreadyJoined: boolean } | { kind: "unknown_code" } | { kind: "full"; project: ProjectRow };

/**
 * `join <code>` on the shared sandbox: the tester now talks to that project (a tester belongs to one
 * project at a time). Capped per project (ctx.settings.sandboxParticipantCap: SVC_SANDBOX_PARTICIPANT_CAP, default 5).
 */
export async function joinProject(ctx: SystemCtx, input: { channel: ChannelRow; address: string; code: string }): Promise<JoinOutcome> {
  const { db, now } = ctx;
  const { channel, address, code } = input;
  const [project] = await db.select().from(projects).where(eq(projects.joinCode, code));
  if (!project) return { kind: "unknown_code" };
  const [current] = await db
    .select()
    .from(sandboxParticipants)
    .where(and(eq(sandboxParticipants.channelId, channel.id), eq(sandboxParticipants.address, address)));
  if (current?.projectId === project.id) return { kind: "joined", project, participantId: current.id, alreadyJoined: true };
  const [others] = await db
    .select({ n: count() })
    .from(sandboxParticipants)
    .where(and(eq(sandboxParticipants.projectId, project.id), ne(sandboxParticipants.address, address)));
  if ((others?.n ?? 0) >= ctx.settings.sandboxParticipantCap) return { kind: "full", project };
  const id = current?.id ?? newId("participant", now.getTime());
  await db
    .insert(sandboxParticipants)
    .values({ id, projectId: project.id, channelId: channel.id, address, joinedAt: now })
    .onConflictDoUpdate({ target: [sandboxParticipants.channelId, sandboxParticipants.address], set: { projectId: project.id, joinedAt: now } });
  return { kind: "joined", project, participantId: id, alreadyJoined: false };
}

/** The project a sandbox tester currently talks to, if any. */
export async function participantProject(db: Db, channel: ChannelRow, address: string): Promise<ProjectRow | null> {
  const [row] = await participantProjectQuery(db).execute({ channel: channel.id, address });
  return row?.project ?? null;
}

/** Every inbound message on the sandbox asks this: built once per database. */
const participantProjectQuery = preparedPerDb((db) =>
  db
    .select({ project: projects })
    .from(sandboxParticipants)
    .innerJoin(projects, eq(projects.id, sandboxParticipants.projectId))
    .where(and(eq(sandboxParticipants.channelId, sql.placeholder("channel")), eq(sandboxParticipants.address, sql.placeholder("address"))))
    .prepare("sandbox_participant_project"),
);

/**
 * A tester changed their number: the participation moves to the new address (unless the new number
 * joined a project itself already, which then wins).
 */
export async function moveParticipant(db: Db, channel: ChannelRow, from: string, to: string): Promise<void> {
  const [taken] = await db
    .select({ id: sandboxParticipants.id })
    .from(sandboxParticipants)
    .where(and(eq(sandboxParticipants.channelId, channel.id), eq(sandboxParticipants.address, to)));
  if (taken) return;
  await db
    .update(sandboxParticipants)
    .set({ address: to })
    .where(and(eq(sandboxParticipants.channelId, channel.id), eq(sandboxParticipants.address, from)));
}
