import { eq } from "drizzle-orm";
import { users } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";

/** Who did something in the inbox, as the wire shows it (`assigned_by`, a note's `author`). */
export interface InboxActor {
  type: "member" | "api_key";
  id: string;
  name: string;
}

/**
 * The acting member (name, else email) or API key (name, else its display), kept with the row so it
 * still reads after the member leaves or the key is revoked. The system acts for neither here.
 */
export async function inboxActorOf(ctx: Pick<Ctx, "db" | "actor">): Promise<InboxActor> {
  const actor = ctx.actor;
  if (actor.type === "api_key") return { type: "api_key", id: actor.id, name: actor.name ?? actor.display };
  if (actor.type === "user") {
    const [user] = await ctx.db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, actor.id));
    return { type: "member", id: actor.id, name: user?.name ?? user?.email ?? actor.id };
  }
  // Jobs never assign or write notes: a system actor here is a bug, not a third kind of author.
  throw new Error("An inbox action needs a member or an API key as its actor.");
}
