import { and, eq } from "drizzle-orm";
import { contacts } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { emitEvent } from "@/lib/domain/events";
import type { ApplyOutcome } from "./apply";
import type { InboundParty } from "./types";
import { projectFor, type InboundOf } from "./resolve";

/** A call item (PLATFORM_A calling): call.event to the project of the customer on the call. */
export async function applyCall(ctx: SystemCtx, channel: ChannelRow, event: InboundOf<"call">): Promise<ApplyOutcome> {
  const party = partyOfCall(event.call, channel);
  const project = await projectFor(ctx.db, channel, party);
  if (!project) return "no_project";
  const [contact] = party.address
    ? await ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.projectId, project.id), eq(contacts.phone, `+${party.address}`)))
    : [];
  await emitEvent(ctx, {
    project,
    type: "call.event",
    payload: {
      kind: event.call_kind,
      call_id: event.call_id,
      event: event.event,
      timestamp: event.timestamp,
      channel_id: channel.id,
      contact_id: contact?.id ?? null,
      call: event.call,
    },
    at: ctx.now,
    dedupeKey: `call:${event.call_id}:${event.event}:${event.timestamp}`,
  });
  return "call";
}

/**
 * The customer on a call item: `recipient_id` on status items; on calls items the side that is not
 * the business (`to` for business-initiated calls or when `from` is the channel's own number).
 */
function partyOfCall(call: Record<string, unknown>, channel: ChannelRow): InboundParty {
  const digits = (v: unknown) => (typeof v === "string" && v !== "" ? v.replace(/[^\d]/g, "") || null : null);
  const from = digits(call.from);
  const to = digits(call.to);
  const recipient = digits(call.recipient_id);
  const business = digits(channel.phoneNumber);
  let customer: string | null;
  if (recipient) customer = recipient;
  else if (call.direction === "BUSINESS_INITIATED" || (from !== null && from === business)) customer = to ?? from;
  else customer = from ?? to;
  return { address: customer, user_id: null, parent_user_id: null, username: null, name: null };
}
