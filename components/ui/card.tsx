import type { ComponentPropsWithRef, ReactNode } from "react";
import { cn } from "./cn";

/** A white surface with a hairline border. Compose with CardHeader / CardBody / CardFooter. */
export function Card({ className, ...props }: ComponentPropsWithRef<"section">) {
  return <section className={cn("rounded-lg bg-white shadow-xs ring-1 ring-slate-200", className)} {...props} />;
}

/** Title row of a Card; `actions` sit on the right (wrap under the title on phones). */
export function CardHeader({ title, description, actions, className }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <div className={cn("flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3.5 sm:px-5", className)}>
      <div className="min-w-0">
        <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
        {description && <p className="mt-0.5 text-[13px] text-slate-500">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
    </div>
  );
}

export function CardBody({ className, ...props }: ComponentPropsWithRef<"div">) {
  return <div className={cn("px-4 py-4 sm:px-5", className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentPropsWithRef<"div">) {
  return (
    <div
      className={cn("flex flex-wrap items-center justify-end gap-2 rounded-b-lg border-t border-slate-200 bg-slate-50/70 px-4 py-3 sm:px-5", className)}
      {...props}
    />
  );
}
