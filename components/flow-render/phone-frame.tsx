import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** A phone outline around a Flow screen (the same look as the sandbox phone). `label` names the region. */
export function PhoneFrame({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("mx-auto w-full max-w-[20rem] rounded-[2.5rem] bg-slate-900 p-2.5 shadow-xl ring-1 ring-slate-900/40", className)}>
      <section aria-label={label} className="relative flex h-[36rem] flex-col overflow-hidden rounded-[2rem] bg-white pt-7">
        <div aria-hidden="true" className="absolute top-2 left-1/2 z-10 h-4 w-20 -translate-x-1/2 rounded-full bg-slate-900" />
        <div className="min-h-0 flex-1">{children}</div>
      </section>
    </div>
  );
}
