import { Badge, Spinner, type BadgeTone } from "@/components/ui";
import type { TemplateStatus } from "@/lib/client/templates";

const STATUS: Record<TemplateStatus, { label: string; tone: BadgeTone; hint: string }> = {
  PENDING: { label: "Pending", tone: "info", hint: "The provider is reviewing it; this updates on its own." },
  APPROVED: { label: "Approved", tone: "success", hint: "Ready to send." },
  REJECTED: { label: "Rejected", tone: "danger", hint: "The provider refused it: fix it and submit a new template." },
  PAUSED: { label: "Paused", tone: "warning", hint: "The provider paused it after poor customer feedback; it can't be sent for now." },
  DISABLED: { label: "Disabled", tone: "neutral", hint: "The provider disabled it for good; it can't be sent." },
};

export const STATUS_LABELS: Record<TemplateStatus, string> = Object.fromEntries(Object.entries(STATUS).map(([status, { label }]) => [status, label])) as Record<
  TemplateStatus,
  string
>;

/** The review status: PENDING spins until the provider's verdict arrives (the list polls meanwhile). */
export function TemplateStatusBadge({ status }: { status: TemplateStatus }) {
  const { label, tone, hint } = STATUS[status] ?? { label: status, tone: "neutral", hint: "" };
  return (
    <span title={hint || undefined} data-template-status={status}>
      <Badge tone={tone} dot={status !== "PENDING"}>
        {status === "PENDING" && <Spinner size={12} />}
        {label}
      </Badge>
    </span>
  );
}
