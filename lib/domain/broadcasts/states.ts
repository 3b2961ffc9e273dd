/**
 * What each operation may do in each status (pure). Terminal: COMPLETED, CANCELLED, FAILED.
 * send: DRAFT → SENDING (or SCHEDULED when send_at is ahead), PAUSED → SENDING; SENDING/SCHEDULED: unchanged.
 * pause: SENDING/SCHEDULED → PAUSED; PAUSED: unchanged. cancel: anything not terminal → CANCELLED.
 * resend_unknown: COMPLETED → SENDING again, for the recipients whose outcome is unknown (resend.ts).
 */
import type { BroadcastStatus } from "./serialize";

export type BroadcastAction = "send" | "pause" | "cancel" | "add_recipients" | "resend_unknown";

const TERMINAL: ReadonlySet<BroadcastStatus> = new Set(["COMPLETED", "CANCELLED", "FAILED"]);

export function isTerminal(status: BroadcastStatus): boolean {
  return TERMINAL.has(status);
}

/** "change" when the action moves the broadcast, "same" when it is already where the action leads, "refuse" otherwise. */
export function decide(action: BroadcastAction, status: BroadcastStatus): "change" | "same" | "refuse" {
  switch (action) {
    case "add_recipients":
      return status === "DRAFT" || status === "SCHEDULED" ? "change" : "refuse";
    case "send":
      if (status === "DRAFT" || status === "PAUSED") return "change";
      return status === "SENDING" || status === "SCHEDULED" ? "same" : "refuse";
    case "pause":
      if (status === "SENDING" || status === "SCHEDULED") return "change";
      return status === "PAUSED" ? "same" : "refuse";
    case "cancel":
      if (status === "CANCELLED") return "same";
      return isTerminal(status) ? "refuse" : "change";
    case "resend_unknown":
      return status === "COMPLETED" ? "change" : "refuse";
  }
}

/** Where send leads: a DRAFT with send_at ahead waits SCHEDULED; everything else sends now. */
export function sendTarget(status: BroadcastStatus, sendAt: Date | null, now: Date): "SCHEDULED" | "SENDING" {
  return status === "DRAFT" && sendAt !== null && sendAt.getTime() > now.getTime() ? "SCHEDULED" : "SENDING";
}

/** Why a run was paused: `pause_reason` on the wire. The dashboard words each one (components/broadcasts/model/vocabulary.ts). */
export const PAUSE_REASONS = [
  "paused_by_user",
  "template_paused",
  "template_disabled",
  "template_not_approved",
  "throughput_errors",
  "channel_not_ready",
  "sender_failed",
] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];
