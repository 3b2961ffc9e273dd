import { Badge, type BadgeTone } from "@/components/ui";
import type { FlowDispatch, FlowSubmission } from "@/lib/client/flows";

const DISPATCH: Record<FlowDispatch["status"], { label: string; tone: BadgeTone }> = {
  SENT: { label: "Sent", tone: "info" },
  COMPLETED: { label: "Completed", tone: "success" },
  EXPIRED: { label: "Expired", tone: "neutral" },
};

export function DispatchStatusBadge({ status }: { status: FlowDispatch["status"] }) {
  const { label, tone } = DISPATCH[status] ?? { label: status, tone: "neutral" };
  return (
    <Badge tone={tone} dot>
      {label}
    </Badge>
  );
}

const SUBMISSION: Record<FlowSubmission["status"], { label: string; tone: BadgeTone }> = {
  RECEIVED: { label: "Received", tone: "info" },
  VALIDATED: { label: "Validated", tone: "success" },
  FORWARDED: { label: "Forwarded", tone: "success" },
  REJECTED: { label: "Rejected", tone: "danger" },
};

export function SubmissionStatusBadge({ status }: { status: FlowSubmission["status"] }) {
  const { label, tone } = SUBMISSION[status] ?? { label: status, tone: "neutral" };
  return (
    <Badge tone={tone} dot>
      {label}
    </Badge>
  );
}
