import { Badge, ChevronRightIcon, cn } from "@/components/ui";
import type { ConfigDiffAction, ConfigDiffItem } from "@/lib/client/config";
import { ACTION_COPY, TYPE_LABELS, groupDiff } from "./model/diff";

const ACTION_FRAMES: Record<ConfigDiffAction, string> = {
  create: "border-l-emerald-500",
  update: "border-l-amber-500",
  delete: "border-l-red-500",
  unchanged: "border-l-slate-300",
};

function Items({ items }: { items: ConfigDiffItem[] }) {
  return (
    <ul className="mt-1.5 space-y-1">
      {items.map((item) => (
        <li key={`${item.type}:${item.key}`} className="flex flex-wrap items-center gap-2 text-[13px]" data-diff-type={item.type}>
          <span className="w-28 shrink-0 text-slate-500">{TYPE_LABELS[item.type] ?? item.type}</span>
          <code className="font-mono text-[12px] break-all text-slate-800">{item.key}</code>
          {item.changes?.length ? <span className="text-slate-500">({item.changes.join(", ")})</span> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * What applying does (or did), grouped by action in colour: create green, update amber, delete red;
 * the unchanged fold away. `tense` words the headings ("to create" before, "created" after).
 */
export function DiffList({ items, tense, label }: { items: readonly ConfigDiffItem[]; tense: "planned" | "done"; label: string }) {
  const groups = groupDiff(items);
  if (groups.length === 0) return <p className="text-[13px] text-slate-500">The document lists nothing to compare.</p>;
  return (
    <div aria-label={label} role="group" className="space-y-2">
      {groups.map(({ action, items: grouped }) => {
        const copy = ACTION_COPY[action];
        const heading = (
          <span className="inline-flex items-center gap-2">
            <Badge tone={copy.tone} dot>
              {copy.label}
            </Badge>
            <span className="text-[13px] text-slate-600">
              {grouped.length} {tense === "planned" ? copy.planned : copy.done}
            </span>
          </span>
        );
        const frame = cn("rounded-md border-l-4 bg-white py-2 pr-3 pl-3 ring-1 ring-slate-200", ACTION_FRAMES[action]);
        if (action === "unchanged") {
          return (
            <details key={action} className={cn(frame, "group [&>summary::-webkit-details-marker]:hidden")} data-diff-action={action}>
              <summary className="flex cursor-pointer list-none items-center gap-1 focus-visible:outline-2 focus-visible:outline-indigo-600">
                <ChevronRightIcon size={12} className="text-slate-500 transition-transform group-open:rotate-90 motion-reduce:transition-none" />
                {heading}
              </summary>
              <Items items={grouped} />
            </details>
          );
        }
        return (
          <section key={action} className={frame} data-diff-action={action} aria-label={`${copy.label}: ${grouped.length}`}>
            {heading}
            <Items items={grouped} />
          </section>
        );
      })}
    </div>
  );
}
