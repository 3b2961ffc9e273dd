import { cn } from "@/components/ui/cn";
import { initialsOf } from "./format";

const TINTS = [
  "bg-indigo-100 text-indigo-700",
  "bg-sky-100 text-sky-700",
  "bg-emerald-100 text-emerald-700",
  "bg-amber-100 text-amber-800",
  "bg-rose-100 text-rose-700",
  "bg-violet-100 text-violet-700",
];

/** Initials in a tinted circle; the tint follows the label so a contact keeps its colour. */
export function ContactAvatar({ label, className }: { label: string; className?: string }) {
  let hash = 0;
  for (const char of label) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (
    <span
      aria-hidden="true"
      className={cn("inline-flex size-9 shrink-0 items-center justify-center rounded-full text-xs font-semibold", TINTS[hash % TINTS.length], className)}
    >
      {initialsOf(label)}
    </span>
  );
}
