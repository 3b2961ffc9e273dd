import type { ReactNode } from "react";

/** The card every auth page shows: a heading, one sentence, the form; `footer` sits under the card. */
export function AuthCard({ title, description, children, footer }: { title: ReactNode; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <>
      <div className="rounded-xl bg-white px-6 py-7 shadow-sm ring-1 ring-slate-200 sm:px-8 sm:py-8">
        <h1 className="text-lg font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-500">{description}</p>}
        <div className="mt-6">{children}</div>
      </div>
      {footer && <div className="mt-6 text-center text-[13px] text-slate-500">{footer}</div>}
    </>
  );
}

/** A form-level error (not tied to one field), announced when it appears. */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="flex items-start gap-2 rounded-md bg-red-50 px-3 py-2.5 text-sm text-red-700 ring-1 ring-red-600/15 ring-inset">
      {children}
    </div>
  );
}
