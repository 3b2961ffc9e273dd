import type { Ctx, ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import { publishReadinessOf } from "@/lib/domain/channels/publish-readiness";
import { SvcError } from "@/lib/errors";

/**
 * Whether a channel can carry the project's business agent (docs/spec/decisions.md "Business agents"):
 * the project's own PLATFORM_A number with nothing in its publish readiness blocking, or the shared
 * sandbox, eligible for testing only. Every publish blocker counts (the bar of template submission):
 * the provider's agent needs a verified, approved, paying business account like a template does.
 */
export interface AgentEligibility {
  eligible: boolean;
  reasons: string[];
  checked_at: string;
}

/** Reasons of our own; the others are the channel's publish blockers (lib/domain/channels/publish-readiness.ts). */
export const SANDBOX_TEST_ONLY = "SANDBOX_TEST_ONLY";
export const CHANNEL_NOT_PLATFORM_A = "CHANNEL_NOT_PLATFORM_A";
export const CHANNEL_NOT_CONNECTED = "CHANNEL_NOT_CONNECTED";
/** A dedicated number of the organization that another project owns: its inbound goes there, not to this project's agent. */
export const CHANNEL_OF_ANOTHER_PROJECT = "CHANNEL_OF_ANOTHER_PROJECT";

/** The reasons that are not blockers: an eligible channel may still carry these. */
const INFORMATIONAL: ReadonlySet<string> = new Set([SANDBOX_TEST_ONLY]);

/** A dedicated channel is the project's when it is linked to it, either way round (lib/domain/channels linkedProjects). */
function belongsTo(channel: ChannelRow, project: ProjectRow): boolean {
  if (channel.projectId) return channel.projectId === project.id;
  return project.channelId === channel.id;
}

/** The judgement, pure: tested directly. */
export function judgeEligibility(channel: ChannelRow, project: ProjectRow, now: Date): AgentEligibility {
  const checked_at = now.toISOString();
  if (channel.isSandbox) return { eligible: true, reasons: [SANDBOX_TEST_ONLY], checked_at };
  const reasons: string[] = [];
  if (!belongsTo(channel, project)) reasons.push(CHANNEL_OF_ANOTHER_PROJECT);
  const readiness = publishReadinessOf(channel);
  if (readiness) reasons.push(...readiness.blockers);
  else {
    reasons.push(CHANNEL_NOT_PLATFORM_A);
    if (channel.status !== "connected") reasons.push(CHANNEL_NOT_CONNECTED);
  }
  return { eligible: reasons.every((reason) => INFORMATIONAL.has(reason)), reasons, checked_at };
}

/** The reasons that keep a channel from carrying an agent (412 channel_not_ready's `blockers`). */
export function blockersOf(eligibility: AgentEligibility): string[] {
  return eligibility.reasons.filter((reason) => !INFORMATIONAL.has(reason));
}

/** 412 channel_not_ready, with the eligibility's blocking reasons as `blockers`. */
export function assertEligible(channel: ChannelRow, eligibility: AgentEligibility): void {
  if (eligibility.eligible) return;
  const blockers = blockersOf(eligibility);
  throw new SvcError(
    "channel_not_ready",
    `Channel ${channel.id} cannot carry a business agent: ${blockers.join(", ")}. Use the project's own connected PLATFORM_A number (GET /readiness explains each blocker), or the shared sandbox (ch_sandbox) for testing.`,
    { channel_id: channel.id, blockers, eligibility },
  );
}

/** GET /business-agents/eligibility?channel_id=: a channel the project cannot see is a 404. */
export async function checkEligibility(ctx: Ctx, channelId: string) {
  const channel = await getChannelRowOrThrow(ctx, channelId);
  return { object: "business_agent_eligibility" as const, channel_id: channel.id, eligibility: judgeEligibility(channel, ctx.project, ctx.now) };
}
