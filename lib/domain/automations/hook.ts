import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ConversationRow } from "@/lib/domain/conversations";
import { inboundRoute } from "@/lib/domain/events";
import { AUTOMATION_EVALUATE_JOB } from "./runs";

/**
 * Where ingest hands a stored customer message to the automations (docs/spec/decisions.md
 * "Automations (routing FLOWS)"): only under effective routing FLOWS, only while handoff is off, and
 * only for a new customer turn. Edits and revokes never reach here (they change a stored message);
 * reactions, system and unsupported messages are not turns. Button and list replies, and a Flow's
 * completion, are.
 */
const NOT_A_TURN: ReadonlySet<string> = new Set(["edit", "revoke", "reaction", "system", "unsupported"]);

export function isCustomerTurn(messageType: string): boolean {
  return !NOT_A_TURN.has(messageType);
}

export function automationsEvaluate(project: ProjectRow, channel: ChannelRow, conversation: ConversationRow, messageType: string): boolean {
  if (conversation.handoffStatus === "HUMAN_ACTIVE") return false;
  return inboundRoute(project, channel, conversation).route === "flows" && isCustomerTurn(messageType);
}

/** Inside the message's transaction (ctx.db): the evaluation job exists if and only if the message does. */
export async function queueAutomations(
  ctx: Pick<SystemCtx, "db" | "ports">,
  input: { project: ProjectRow; channel: ChannelRow; conversation: ConversationRow; messageType: string; messageId: string },
): Promise<void> {
  if (!automationsEvaluate(input.project, input.channel, input.conversation, input.messageType)) return;
  await ctx.ports.queue.send(AUTOMATION_EVALUATE_JOB, { messageId: input.messageId }, { tx: ctx.db });
}
