import type { ReactNode } from "react";
import { cn } from "./cn";

/** A form's error that belongs to no one field (a refused request, a conflict), announced to screen readers. Renders nothing without a message. */
export function FormError({ children, className }: { children: ReactNode; className?: string }) {
  if (!children) return null;
  return (
    <p role="alert" className={cn("rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 ring-1 ring-red-600/15 ring-inset", className)}>
      {children}
    </p>
  );
}
