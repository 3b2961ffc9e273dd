"use client";

import { Badge } from "@/components/ui";

/** A key's scopes in a table cell: "Full access", the one scope, or a count that expands to the list. */
export function ScopeSummary({ scopes }: { scopes: string[] }) {
  if (scopes.includes("*")) return <Badge tone="accent">Full access</Badge>;
  if (scopes.length === 0) return <span className="text-slate-500">None</span>;
  if (scopes.length === 1) return <code className="font-mono text-[12px] text-slate-700">{scopes[0]}</code>;
  return (
    <details className="group">
      <summary
        title={scopes.join(", ")}
        className="w-fit cursor-pointer rounded-sm text-[13px] font-medium text-slate-700 underline decoration-slate-300 decoration-dotted underline-offset-4 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {scopes.length} scopes
      </summary>
      <ul className="mt-1.5 space-y-0.5 font-mono text-[12px] text-slate-600">
        {scopes.map((scope) => (
          <li key={scope}>{scope}</li>
        ))}
      </ul>
    </details>
  );
}
