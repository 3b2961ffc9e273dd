import { cn } from "@/components/ui/cn";
import type { InboxLiveMode } from "@/lib/client/inbox-live";

const WORDS: Record<InboxLiveMode, { label: string; why: string }> = {
  live: { label: "Live", why: "Changes arrive as they happen (a live stream from the server)." },
  polling: { label: "Polling", why: "The live stream is not open (yet): the inbox asks the server every few seconds instead." },
};

/** How fresh the inbox is: a live stream, or polling as the fallback. */
export function LiveIndicator({ status }: { status: InboxLiveMode }) {
  const words = WORDS[status];
  return (
    <span
      role="status"
      aria-label={`Updates: ${words.label}`}
      title={words.why}
      data-live-status={status}
      className="inline-flex h-7 items-center gap-1.5 rounded-full bg-white px-2.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200"
    >
      <span aria-hidden="true" className={cn("size-2 rounded-full", status === "live" ? "bg-emerald-500" : "bg-amber-500")} />
      {words.label}
    </span>
  );
}
