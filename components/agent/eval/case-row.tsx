"use client";

import { Button, Field, Input, Select, Textarea } from "@/components/ui";
import { TrashIcon } from "@/components/ui/icons";
import type { EvalCaseDraft, TriState } from "../model/eval-cases";

function TriSelect({ label, value, onChange }: { label: string; value: TriState; onChange: (value: TriState) => void }) {
  return (
    <Field label={label}>
      <Select value={value} onChange={(e) => onChange(e.target.value as TriState)}>
        <option value="any">Don&apos;t check</option>
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </Select>
    </Field>
  );
}

/** One eval case: the customer's message and what the reply must (not) contain, which tool, handoff, silence. */
export function CaseRow({
  index,
  draft,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  draft: EvalCaseDraft;
  error?: string;
  onChange: (draft: EvalCaseDraft) => void;
  onRemove: () => void;
}) {
  const set = (patch: Partial<EvalCaseDraft>) => onChange({ ...draft, ...patch });
  const n = index + 1;
  return (
    <li className="space-y-3 rounded-md p-3 ring-1 ring-slate-200" aria-label={`Eval case ${n}`}>
      <div className="grid gap-3 sm:grid-cols-[1fr_2fr_8rem]">
        <Field label="Case name" error={error}>
          <Input value={draft.name} onChange={(e) => set({ name: e.target.value })} aria-label={`Case ${n} name`} />
        </Field>
        <Field label="Input">
          <Input value={draft.input} onChange={(e) => set({ input: e.target.value })} aria-label={`Case ${n} input`} />
        </Field>
        <Field label="Weight" optional>
          <Input inputMode="decimal" value={draft.weight} placeholder="1" onChange={(e) => set({ weight: e.target.value })} aria-label={`Case ${n} weight`} />
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Reply contains" optional hint="One phrase a line.">
          <Textarea rows={2} value={draft.contains} onChange={(e) => set({ contains: e.target.value })} aria-label={`Case ${n} contains`} />
        </Field>
        <Field label="Reply doesn't contain" optional hint="One phrase a line.">
          <Textarea rows={2} value={draft.not_contains} onChange={(e) => set({ not_contains: e.target.value })} aria-label={`Case ${n} not contains`} />
        </Field>
        <Field label="Tool called" optional hint="Tool names, comma-separated.">
          <Input mono value={draft.tool_called} onChange={(e) => set({ tool_called: e.target.value })} aria-label={`Case ${n} tool called`} />
        </Field>
      </div>
      <div className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]">
        <TriSelect label="Hands off" value={draft.handoff} onChange={(handoff) => set({ handoff })} />
        <TriSelect label="Silent" value={draft.silent} onChange={(silent) => set({ silent })} />
        <Button size="icon" variant="ghost" aria-label={`Remove case ${n}`} onClick={onRemove}>
          <TrashIcon />
        </Button>
      </div>
    </li>
  );
}
