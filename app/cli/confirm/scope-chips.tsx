import { ALL_SCOPES } from "@/components/keys/scope-picker";
import { Badge } from "@/components/ui";

/** Every scope a key carries, each spelled out (a CLI key has a few; the operator should see them all). */
export function ScopeChips({ scopes, className }: { scopes: readonly string[]; className?: string }) {
  if (scopes.includes(ALL_SCOPES)) return <Badge tone="accent">Full access</Badge>;
  return (
    <ul className={className ?? "flex flex-wrap gap-1.5"}>
      {scopes.map((scope) => (
        <li key={scope} className="rounded bg-white px-1.5 py-0.5 font-mono text-[12px] font-normal text-slate-700 ring-1 ring-slate-200">
          {scope}
        </li>
      ))}
    </ul>
  );
}
