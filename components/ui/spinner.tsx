import { cn } from "./cn";

/**
 * An indeterminate spinner. Decorative by default (a Button or region already says it is busy);
 * pass `label` when the spinner is the only sign of loading, so it is announced as a status.
 */
export function Spinner({ size = 16, label, className }: { size?: number; label?: string; className?: string }) {
  const svg = (
    <svg
      width={size}
      height={size}
      viewBox="0 0 20 20"
      fill="none"
      aria-hidden="true"
      className={cn("animate-spin motion-reduce:animate-[spin_1.5s_linear_infinite]", className)}
    >
      <circle cx="10" cy="10" r="8" stroke="currentColor" strokeOpacity="0.2" strokeWidth="2.5" />
      <path d="M18 10a8 8 0 0 0-8-8" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
  if (!label) return svg;
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-500">
      {svg}
      <span className="sr-only">{label}</span>
    </span>
  );
}
