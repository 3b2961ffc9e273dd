import { Badge, Spinner, type BadgeTone } from "@/components/ui";
import type { FlowMetaStatus, FlowStatus } from "@/lib/client/flows";

const STATUS: Record<FlowStatus, { label: string; tone: BadgeTone }> = {
  DRAFT: { label: "Draft", tone: "neutral" },
  PUBLISHED: { label: "Published", tone: "success" },
  DEPRECATED: { label: "Deprecated", tone: "neutral" },
};

/** Our status: what the flow is in svc (a draft, sendable, retired). */
export function FlowStatusBadge({ status }: { status: FlowStatus }) {
  const { label, tone } = STATUS[status] ?? { label: status, tone: "neutral" };
  return (
    <Badge tone={tone} dot>
      {label}
    </Badge>
  );
}

const META: Record<FlowMetaStatus, { label: string; tone: BadgeTone }> = {
  DRAFT: { label: "Draft", tone: "neutral" },
  PUBLISHING: { label: "Publishing", tone: "info" },
  PUBLISHED: { label: "Published", tone: "success" },
  PUBLISH_FAILED: { label: "Publish failed", tone: "danger" },
  BLOCKED: { label: "Blocked", tone: "warning" },
  THROTTLED: { label: "Throttled", tone: "warning" },
  DEPRECATED: { label: "Deprecated", tone: "neutral" },
};

/** The provider's status (meta_status): PUBLISHING spins until the publish settles. */
export function MetaStatusBadge({ status, reason }: { status: FlowMetaStatus | null; reason?: string | null }) {
  if (!status) return <span className="text-[13px] text-slate-500">Not published</span>;
  const { label, tone } = META[status] ?? { label: status, tone: "neutral" };
  return (
    <span title={reason ?? undefined} data-meta-status={status}>
      <Badge tone={tone} dot={status !== "PUBLISHING"}>
        {status === "PUBLISHING" && <Spinner size={12} />}
        {label}
      </Badge>
    </span>
  );
}
