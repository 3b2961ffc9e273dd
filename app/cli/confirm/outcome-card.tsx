import type { ReactNode } from "react";
import { cn } from "@/components/ui";

const TONES = {
  success: "bg-emerald-50 text-emerald-600 ring-emerald-600/20",
  danger: "bg-red-50 text-red-600 ring-red-600/20",
  warning: "bg-amber-50 text-amber-600 ring-amber-600/25",
};

/** The end of the page's story (approved, denied, expired, used): an icon, a heading, what to do next. */
export function OutcomeCard({ tone, icon, title, children }: { tone: keyof typeof TONES; icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section
      className="rounded-xl bg-white px-6 py-8 text-center shadow-sm ring-1 ring-slate-200 sm:px-8"
      aria-labelledby="cli-outcome-title"
      data-testid="cli-outcome"
    >
      <div className={cn("mx-auto mb-4 flex size-11 items-center justify-center rounded-full ring-1 ring-inset [&_svg]:size-6", TONES[tone])}>{icon}</div>
      <h1 id="cli-outcome-title" className="text-lg font-semibold tracking-tight text-slate-900">
        {title}
      </h1>
      <div className="mx-auto mt-2 max-w-md text-sm text-slate-600">{children}</div>
    </section>
  );
}
