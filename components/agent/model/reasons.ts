import { describeBlocker } from "@/components/channels/blockers";

/**
 * Eligibility reason codes (GET /business-agents/eligibility; lib/domain/agents/eligibility.ts) as
 * sentences with a next step. The channel's publish blockers reuse the Channels page's wording; a code
 * neither map knows is shown raw, so a reason added on the server is never hidden.
 */
export interface ReasonText {
  code: string;
  problem: string;
  next: string;
  /** "info": not a blocker (the shared sandbox: eligible, for testing). */
  tone: "info" | "blocker";
}

const AGENT_REASONS: Record<string, Omit<ReasonText, "code">> = {
  SANDBOX_TEST_ONLY: {
    problem: "The shared sandbox carries the agent for testing only: it answers from the sandbox phone, not real customers.",
    next: "Connect your own business messaging (PLATFORM_A) number to put the agent in front of customers.",
    tone: "info",
  },
  CHANNEL_NOT_PLATFORM_A: {
    problem: "Business agents run on business messaging (PLATFORM_A) numbers only, and this channel is on another platform.",
    next: "Pick a business messaging (PLATFORM_A) channel, or the shared sandbox to try the agent.",
    tone: "blocker",
  },
  CHANNEL_OF_ANOTHER_PROJECT: {
    problem: "This number belongs to another project of the organization: its customers' messages go there, not to this project's agent.",
    next: "Open that project to set up its agent, or connect a number for this project.",
    tone: "blocker",
  },
};

export function describeReason(code: string): ReasonText {
  const own = AGENT_REASONS[code];
  if (own) return { code, ...own };
  const blocker = describeBlocker(code);
  if (blocker) return { code, ...blocker, tone: "blocker" };
  return { code, problem: `The channel isn't ready (${code}).`, next: "Check the channel's readiness on the Channels page.", tone: "blocker" };
}

/** Each reason once, blockers first (they are what the operator must act on). */
export function describeReasons(codes: readonly string[]): ReasonText[] {
  const texts = [...new Set(codes)].map(describeReason);
  return [...texts.filter((t) => t.tone === "blocker"), ...texts.filter((t) => t.tone === "info")];
}
