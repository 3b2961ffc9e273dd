import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/**
 * A Flow screen as the customer's phone shows it: a top bar with the screen title, the content
 * scrolling under it, and the Footer pinned at the bottom. It fills its container (give the container
 * a height, e.g. a phone frame).
 */
export function ScreenChrome({ title, footer, children, className }: { title: string; footer: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div className={cn("flex h-full min-h-0 flex-col bg-white text-slate-900", className)}>
      <div className="flex h-12 shrink-0 items-center gap-2 border-b border-slate-100 px-3">
        <span aria-hidden="true" className="flex size-7 items-center justify-center text-lg leading-none text-slate-500">
          ×
        </span>
        <p className="min-w-0 flex-1 truncate text-center text-[15px] font-semibold">{title}</p>
        <span aria-hidden="true" className="size-7" />
      </div>
      <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-4 py-4">{children}</div>
      {footer}
    </div>
  );
}

export interface FooterCaptions {
  left: string;
  center: string;
  right: string;
}

/**
 * The screen's one Footer button (a submit button: Enter in a text input presses it too). Its look
 * follows `disabled` (the Flow's `enabled: false`), not :disabled, so a still preview (a disabled
 * fieldset) shows the button as the customer sees it.
 */
export function ScreenFooter({ label, captions, disabled }: { label: string; captions: FooterCaptions; disabled: boolean }) {
  return (
    <div className="shrink-0 space-y-1.5 border-t border-slate-100 px-4 pt-3 pb-4">
      {(captions.left || captions.center || captions.right) && (
        <div className="flex justify-between gap-2 text-[11px] text-slate-500">
          <span>{captions.left}</span>
          <span>{captions.center}</span>
          <span>{captions.right}</span>
        </div>
      )}
      <button
        type="submit"
        disabled={disabled}
        className={cn(
          "h-10 w-full rounded-full text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:cursor-default",
          disabled ? "bg-slate-200 text-slate-500" : "bg-emerald-700 text-white enabled:hover:bg-emerald-600",
        )}
      >
        {label || "Continue"}
      </button>
    </div>
  );
}
