import type { BadgeTone } from "@/components/ui";
import type { Broadcast, BroadcastRecipient, BroadcastRecipientStatus, BroadcastStats, BroadcastStatus } from "@/lib/client/broadcasts";
import type { PauseReason } from "@/lib/domain/broadcasts/states";

/** Words for the broadcast's states and reasons (docs/spec/decisions.md "Broadcasts"). */

export const STATUS: Record<BroadcastStatus, { label: string; tone: BadgeTone; hint: string }> = {
  DRAFT: { label: "Draft", tone: "neutral", hint: "Add recipients, then send or schedule it." },
  SCHEDULED: { label: "Scheduled", tone: "info", hint: "It starts sending at its scheduled time." },
  SENDING: { label: "Sending", tone: "accent", hint: "Messages are going out, paced to the channel's throughput." },
  PAUSED: { label: "Paused", tone: "warning", hint: "Nothing is sent until it is resumed." },
  COMPLETED: { label: "Completed", tone: "success", hint: "Every recipient is settled." },
  CANCELLED: { label: "Cancelled", tone: "neutral", hint: "Recipients not sent yet were skipped." },
  FAILED: { label: "Failed", tone: "danger", hint: "It could not start." },
};

export const RECIPIENT_STATUS: Record<BroadcastRecipientStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: "Pending", tone: "neutral" },
  queued: { label: "Queued", tone: "info" },
  sent: { label: "Sent", tone: "accent" },
  delivered: { label: "Delivered", tone: "success" },
  read: { label: "Read", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  skipped: { label: "Skipped", tone: "warning" },
};

// Typed by the service's reasons: a reason added there without a sentence here does not compile.
const PAUSE_REASONS: Record<PauseReason, string> = {
  paused_by_user: "Paused by an operator. Resume to send to the remaining recipients.",
  template_paused: "Paused because the provider paused the template after poor customer feedback. Resume once it is active again.",
  template_disabled: "Paused because the provider disabled the template. It can't be sent any more: cancel this broadcast.",
  template_not_approved: "Paused because the template is no longer approved. Resume once the provider approves it again.",
  throughput_errors: "Paused because the provider kept refusing messages for throughput. Resume in a few minutes.",
  channel_not_ready: "Paused because the channel can't send right now. Check it on the Channels page, then resume.",
  sender_failed: "Paused because sending kept failing on our side. Nothing was lost: resume to try again, and contact support if it pauses again.",
};

/** pause_reason as a sentence; an unknown reason keeps its code so nothing is hidden. */
export function pauseReasonText(reason: string | null): string | null {
  if (!reason) return null;
  return Object.hasOwn(PAUSE_REASONS, reason) ? PAUSE_REASONS[reason as PauseReason] : `Paused by the service (${reason}). Resume when the cause is fixed.`;
}

const SKIP_REASONS: Record<string, string> = {
  no_opt_in: "No active opt-in",
  cancelled: "Broadcast cancelled",
  erased: "Contact erased",
  duplicate: "Duplicate",
};

export function skipReasonText(reason: string | null): string | null {
  if (!reason) return null;
  return SKIP_REASONS[reason] ?? reason.replaceAll("_", " ");
}

export interface Progress {
  total: number;
  /** Past the send step: sent, delivered, read, failed or skipped. */
  processed: number;
  /** Delivered, counting read ones (a read message was delivered). */
  delivered: number;
  percent: number;
  /** Bar segments in order, each a share of the total. */
  segments: Array<{ key: "delivered" | "sent" | "queued" | "failed" | "skipped"; count: number }>;
}

export function progressOf(stats: BroadcastStats): Progress {
  const delivered = stats.delivered + stats.read;
  const processed = delivered + stats.sent + stats.failed + stats.skipped;
  const percent = stats.total > 0 ? Math.min(100, Math.round((processed / stats.total) * 100)) : 0;
  return {
    total: stats.total,
    processed,
    delivered,
    percent,
    segments: [
      { key: "delivered", count: delivered },
      { key: "sent", count: stats.sent },
      { key: "queued", count: stats.queued },
      { key: "failed", count: stats.failed },
      { key: "skipped", count: stats.skipped },
    ],
  };
}

/**
 * The detail page's tiles. The API counts each recipient once, by where it is now (a read message is
 * not in `delivered`); an operator asks how many got at least that far, so Sent, Delivered and Read
 * are a funnel here: sent counts delivered and read ones, delivered counts read ones. The recipient
 * filter still lists by current status.
 */
export const STAT_TILES = [
  { key: "total", label: "Recipients", hint: "Everyone on the list." },
  { key: "pending", label: "Pending", hint: "Not sent yet." },
  { key: "queued", label: "Queued", hint: "Being handed to the provider." },
  { key: "sent", label: "Sent", hint: "Accepted by the provider, delivered and read ones included." },
  { key: "delivered", label: "Delivered", hint: "Reached the customer's phone, read ones included." },
  { key: "read", label: "Read", hint: "Opened by the customer." },
  { key: "failed", label: "Failed", hint: "The provider could not send or deliver it." },
  { key: "skipped", label: "Skipped", hint: "Not sent: no opt-in, erased, or the broadcast was cancelled." },
  { key: "replied", label: "Replied", hint: "Wrote back within 72 hours of the message." },
] as const;

export type StatTileKey = (typeof STAT_TILES)[number]["key"];

export function tileValues(stats: BroadcastStats): Record<StatTileKey, number> {
  const funnel = { ...stats, sent: stats.sent + stats.delivered + stats.read, delivered: stats.delivered + stats.read };
  return Object.fromEntries(STAT_TILES.map((tile) => [tile.key, funnel[tile.key]])) as Record<StatTileKey, number>;
}

/** Which buttons a broadcast offers in its state; the server decides again (409 broadcast_not_editable). */
export function availableActions(broadcast: Pick<Broadcast, "status" | "send_at"> & { stats?: Pick<BroadcastStats, "outcome_unknown"> }) {
  const { status } = broadcast;
  return {
    addRecipients: status === "DRAFT" || status === "SCHEDULED",
    send: status === "DRAFT",
    sendLabel: broadcast.send_at ? "Schedule" : "Send now",
    pause: status === "SENDING" || status === "SCHEDULED",
    resume: status === "PAUSED",
    cancel: status === "DRAFT" || status === "SCHEDULED" || status === "SENDING" || status === "PAUSED",
    // Only once it is COMPLETED: while it runs, what is unknown is not settled yet (POST /broadcasts/{id}/resend-unknown).
    resendUnknown: status === "COMPLETED" && (broadcast.stats?.outcome_unknown ?? 0) > 0,
  };
}

const recipients = (n: number) => `${n} recipient${n === 1 ? "" : "s"}`;

/**
 * The words around sends whose outcome is unknown (docs/api-decisions.md "Broadcasts"): the note that
 * says how many and why they were not sent again, and the resend button with a confirmation that says
 * exactly what it will do, including that some customers may get the message twice.
 */
export function unknownOutcomeWords(count: number, status: BroadcastStatus) {
  const who = recipients(count);
  return {
    note:
      `${count === 1 ? "1 recipient's send has" : `${count} recipients' sends have`} an unknown outcome: the sender stopped after handing ` +
      `${count === 1 ? "it" : "them"} to the provider and before it heard back, so ${count === 1 ? "that customer" : "those customers"} may or may not ` +
      `have the message. ${count === 1 ? "It was" : "They were"} not sent again automatically` +
      (status === "COMPLETED" ? ": you can resend them on purpose." : "; once the broadcast completes you can resend them on purpose."),
    button: `Resend ${who} whose outcome is unknown`,
    title: `Resend ${who} whose outcome is unknown?`,
    confirmation:
      `This sends the template once more to exactly these ${who}, and to nobody else on the list. Their first message may already have ` +
      `reached them, so some customers may get it twice. The broadcast shows Sending until they are handed to the provider.`,
    confirmLabel: `Resend to ${who}`,
    done: `Resending to ${who}`,
  };
}

/** A failed recipient's detail line: the unknown outcome in words, any other failure as the API says it. */
export function failureText(recipient: Pick<BroadcastRecipient, "error" | "error_code">): string | null {
  if (recipient.error_code === "outcome_unknown") return "Outcome unknown: may have been sent; not sent again automatically";
  return recipient.error;
}
