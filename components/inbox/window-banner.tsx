"use client";

import { cn } from "@/components/ui/cn";
import { AlertIcon } from "@/components/ui/icons";
import type { Platform } from "@/lib/client/channels";
import type { MessagingWindow } from "@/lib/client/inbox";
import { formatDuration } from "./format";

/**
 * Over the composer: how long free-form replies stay possible, or why they are not. The window is the
 * conversation's messaging_window, which the server computes by the rule POST /messages applies.
 */
export function WindowBanner({ replyWindow, now, platform }: { replyWindow: MessagingWindow; now: number; platform: Platform | null }) {
  if (!replyWindow.open || replyWindow.closes_at === null) {
    const reason = replyWindow.closes_at === null ? "the customer hasn't written on this channel yet" : "the customer hasn't written in 24 hours";
    return (
      <Banner
        tone="warning"
        icon={<AlertIcon size={14} />}
        title={platform === "PLATFORM_A" || platform === null ? "Template required" : "Reply window closed"}
      >
        Free-form replies are blocked: {reason}.{" "}
        {platform === "PLATFORM_A" || platform === null
          ? "Send an approved template (the Template tab below), or wait for the customer to write again. Notes for your team still work."
          : "This platform allows no business-initiated messages; you can reply once the customer writes again."}
      </Banner>
    );
  }
  // The conversation is polled, so `open` turns false soon after closes_at; until then count down to it.
  const left = Math.max(0, Date.parse(replyWindow.closes_at) - now);
  const soon = left < 3600_000;
  return (
    <Banner tone={soon ? "warning" : "success"} icon={<ClockGlyph />}>
      <span className="font-medium">Window closes in {formatDuration(left)}</span>
      <span className="text-current/80"> · free-form replies are open for 24 h after the customer's last message.</span>
    </Banner>
  );
}

function Banner({
  tone,
  icon,
  title,
  children,
}: {
  tone: "neutral" | "warning" | "success";
  icon: React.ReactNode;
  title?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role="status"
      aria-label="Reply window"
      className={cn(
        "flex items-start gap-2 rounded-md px-3 py-2 text-xs leading-5",
        tone === "warning" && "bg-amber-50 text-amber-900 ring-1 ring-amber-600/20",
        tone === "success" && "bg-emerald-50 text-emerald-900 ring-1 ring-emerald-600/15",
        tone === "neutral" && "bg-slate-100 text-slate-700",
      )}
    >
      <span className="mt-0.5 shrink-0">{icon}</span>
      <p>
        {title && <span className="font-semibold">{title}: </span>}
        {children}
      </p>
    </div>
  );
}

function ClockGlyph() {
  return (
    <svg width="14" height="14" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth={1.7} strokeLinecap="round" aria-hidden="true">
      <circle cx="10" cy="10" r="7.5" />
      <path d="M10 6v4l2.5 1.5" />
    </svg>
  );
}
