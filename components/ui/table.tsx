import type { ComponentPropsWithRef, ReactNode } from "react";
import { cn } from "./cn";

/**
 * The frame of a table: a card that scrolls sideways on narrow screens instead of squashing columns.
 * `label` names the scroll region and makes it keyboard-scrollable (tab to it, then arrow keys).
 */
export function TableContainer({ label, className, children }: { label?: string; className?: string; children: ReactNode }) {
  return (
    <div
      className={cn(
        "relative overflow-x-auto rounded-lg bg-white shadow-xs ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
        className,
      )}
      {...(label ? { role: "region", "aria-label": label, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}

export function Table({ className, caption, children, ...props }: ComponentPropsWithRef<"table"> & { caption?: string }) {
  return (
    <table className={cn("w-full min-w-max border-collapse text-left text-sm", className)} {...props}>
      {caption && <caption className="sr-only">{caption}</caption>}
      {children}
    </table>
  );
}

export function THead({ className, ...props }: ComponentPropsWithRef<"thead">) {
  return <thead className={cn("border-b border-slate-200 bg-slate-50/80", className)} {...props} />;
}

export function TBody({ className, ...props }: ComponentPropsWithRef<"tbody">) {
  return <tbody className={cn("divide-y divide-slate-100", className)} {...props} />;
}

/** A row; `interactive` adds a hover tint (for rows that hold a link or open something). */
export function TR({ className, interactive, ...props }: ComponentPropsWithRef<"tr"> & { interactive?: boolean }) {
  return <tr className={cn(interactive && "transition-colors hover:bg-slate-50", className)} {...props} />;
}

export function TH({ className, scope = "col", ...props }: ComponentPropsWithRef<"th">) {
  return <th scope={scope} className={cn("h-9 px-4 text-xs font-medium whitespace-nowrap text-slate-500", className)} {...props} />;
}

/** A cell. `numeric` right-aligns with tabular figures; `mono` for ids. */
export function TD({ className, numeric, mono, ...props }: ComponentPropsWithRef<"td"> & { numeric?: boolean; mono?: boolean }) {
  return (
    <td className={cn("px-4 py-3 align-middle text-slate-700", numeric && "text-right tabular-nums", mono && "font-mono text-[13px]", className)} {...props} />
  );
}
