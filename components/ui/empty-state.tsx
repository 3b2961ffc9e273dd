import type { ReactNode } from "react";
import { cn } from "./cn";

export interface EmptyStateProps {
  /** An icon from ./icons (rendered in a soft tile). */
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  /** Usually one primary Button or ButtonLink; can be several. */
  action?: ReactNode;
  /** Smaller padding for use inside a Card. */
  compact?: boolean;
  /** "h1" when the empty state is all the page shows (e.g. an unknown project): the page still has its main heading. */
  headingLevel?: "h1" | "h2";
  className?: string;
}

/** What a list shows when it has nothing yet: says what will appear here and how to get the first one. */
export function EmptyState({ icon, title, description, action, compact, headingLevel: Heading = "h2", className }: EmptyStateProps) {
  return (
    <div
      className={cn("flex flex-col items-center text-center", compact ? "px-4 py-8" : "rounded-lg border border-dashed border-slate-300 px-6 py-14", className)}
    >
      {icon && (
        <div className="mb-4 flex size-10 items-center justify-center rounded-lg bg-slate-100 text-slate-500 ring-1 ring-slate-200 [&_svg]:size-5">{icon}</div>
      )}
      <Heading className="text-sm font-semibold text-slate-900">{title}</Heading>
      {description && <p className="mt-1 max-w-sm text-sm text-slate-500">{description}</p>}
      {action && <div className="mt-5 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  );
}
