import { Badge, Spinner } from "@/components/ui";

/** Whether the editor holds edits the server does not have yet. */
export function SaveState({ dirty, saving }: { dirty: boolean; saving: boolean }) {
  if (saving) {
    return (
      <span role="status" className="inline-flex items-center gap-1.5 text-[13px] text-slate-500">
        <Spinner size={12} /> Saving…
      </span>
    );
  }
  if (dirty) {
    return (
      <Badge tone="warning" dot>
        Unsaved changes
      </Badge>
    );
  }
  return <span className="text-[13px] text-slate-500">All changes saved</span>;
}
