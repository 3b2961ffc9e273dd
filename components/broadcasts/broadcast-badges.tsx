import { Badge, Spinner } from "@/components/ui";
import type { BroadcastRecipientStatus, BroadcastStatus } from "@/lib/client/broadcasts";
import { RECIPIENT_STATUS, STATUS } from "./model/vocabulary";

/** The broadcast's state; SENDING spins while the page polls. */
export function BroadcastStatusBadge({ status }: { status: BroadcastStatus }) {
  const { label, tone, hint } = STATUS[status] ?? { label: status, tone: "neutral", hint: "" };
  return (
    <span title={hint || undefined} data-broadcast-status={status}>
      <Badge tone={tone} dot={status !== "SENDING"}>
        {status === "SENDING" && <Spinner size={12} />}
        {label}
      </Badge>
    </span>
  );
}

export function RecipientStatusBadge({ status }: { status: BroadcastRecipientStatus }) {
  const { label, tone } = RECIPIENT_STATUS[status] ?? { label: status, tone: "neutral" };
  return (
    <span data-recipient-status={status}>
      <Badge tone={tone} dot>
        {label}
      </Badge>
    </span>
  );
}
