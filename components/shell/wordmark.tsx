import { cn } from "@/components/ui/cn";

/** The svc mark (same drawing as public/icon.svg) + name. Decorative mark; the text is the name. */
export function Wordmark({ className, size = "md" }: { className?: string; size?: "md" | "lg" }) {
  const px = size === "lg" ? 28 : 22;
  return (
    <span className={cn("inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900", size === "lg" ? "text-xl" : "text-[15px]", className)}>
      <svg width={px} height={px} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="#4f46e5" />
        <path d="M9 12.5c0-2 1.8-3.5 4.2-3.5h5.6c2.4 0 4.2 1.5 4.2 3.5v4c0 2-1.8 3.5-4.2 3.5H15l-4 3v-3.2c-1.2-.6-2-1.8-2-3.3z" fill="#fff" />
      </svg>
      svc
    </span>
  );
}
