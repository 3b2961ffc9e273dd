import { Badge, type BadgeTone } from "@/components/ui";
import type { DeliveryStatus } from "@/lib/client/webhooks";

const TONES: Record<DeliveryStatus, BadgeTone> = { pending: "info", succeeded: "success", failed: "danger", paused: "warning" };
export const STATUS_LABELS: Record<DeliveryStatus, string> = { pending: "Pending", succeeded: "Succeeded", failed: "Failed", paused: "Paused" };

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge tone={TONES[status] ?? "neutral"} dot>
      {STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

/** The outcome of one HTTP answer: the status code, coloured; or the transport error when there was no answer. */
export function ResponseCode({ code, error }: { code: number | null; error?: string | null }) {
  if (code === null) {
    if (!error) return <span className="text-slate-500">—</span>;
    return (
      <span className="inline-block max-w-56 truncate align-middle text-[13px] text-red-700" title={error}>
        {error}
      </span>
    );
  }
  const ok = code >= 200 && code < 300;
  return <span className={ok ? "font-mono text-[13px] font-medium text-emerald-700" : "font-mono text-[13px] font-medium text-red-700"}>{code}</span>;
}
