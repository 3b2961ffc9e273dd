import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "./cn";
import { ChevronRightIcon } from "./icons";

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right (they wrap below the title on phones). */
  actions?: ReactNode;
  /** A parent page link shown above the title, e.g. { href: ".../webhooks", label: "Webhooks" }. */
  back?: { href: string; label: string };
  /** Extra line under the description (badges, meta). */
  meta?: ReactNode;
  className?: string;
}

/** The top of every dashboard page: the one <h1>, a sentence on what the page is for, the page's actions. */
export function PageHeader({ title, description, actions, back, meta, className }: PageHeaderProps) {
  return (
    <header className={cn("mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-4", className)}>
      <div className="min-w-0 flex-1 basis-72">
        {back && (
          <nav aria-label="Breadcrumb" className="mb-1.5">
            <Link
              href={back.href}
              className="inline-flex items-center gap-1 rounded-sm text-[13px] font-medium text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              {back.label}
              <ChevronRightIcon size={14} />
            </Link>
          </nav>
        )}
        <h1 className="text-xl font-semibold tracking-tight text-balance text-slate-900 sm:text-[22px]">{title}</h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-pretty text-slate-500">{description}</p>}
        {meta && <div className="mt-2 flex flex-wrap items-center gap-2">{meta}</div>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </header>
  );
}
