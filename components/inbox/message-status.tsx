import { cn } from "@/components/ui/cn";
import { Spinner } from "@/components/ui/spinner";

const LABELS: Record<string, string> = {
  sending: "Sending…",
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  read: "Read",
  failed: "Failed",
  deleted: "Deleted",
};

/** An outbound message's delivery state: a small icon plus its word (the word is what e2e and screen readers read). */
export function MessageStatus({ status, className }: { status: string; className?: string }) {
  const label = LABELS[status] ?? status;
  return (
    <span
      data-status={status}
      className={cn(
        "inline-flex items-center gap-1",
        status === "failed" ? "font-medium text-red-600" : status === "read" ? "text-indigo-600" : "text-slate-500",
        className,
      )}
    >
      <StatusGlyph status={status} />
      {label}
    </span>
  );
}

function StatusGlyph({ status }: { status: string }) {
  if (status === "sending") return <Spinner size={11} />;
  const common = {
    width: 14,
    height: 14,
    viewBox: "0 0 20 20",
    fill: "none",
    stroke: "currentColor",
    strokeWidth: 1.8,
    strokeLinecap: "round" as const,
    strokeLinejoin: "round" as const,
    "aria-hidden": true,
  };
  switch (status) {
    case "queued":
      return (
        <svg {...common}>
          <circle cx="10" cy="10" r="7" />
          <path d="M10 6v4l2.5 1.5" />
        </svg>
      );
    case "sent":
      return (
        <svg {...common}>
          <path d="m4.5 10.5 3.5 3.5 7.5-8" />
        </svg>
      );
    case "delivered":
    case "read":
      return (
        <svg {...common}>
          <path d="m1.5 10.5 3.5 3.5 7.5-8" />
          <path d="m9 13.5.5.5 7.5-8" />
        </svg>
      );
    case "failed":
      return (
        <svg {...common}>
          <circle cx="10" cy="10" r="7" />
          <path d="M10 6.5v4M10 13.5h.01" />
        </svg>
      );
    default:
      return null;
  }
}
