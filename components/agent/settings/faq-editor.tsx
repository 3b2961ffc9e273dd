"use client";

import { Button, Input, Textarea } from "@/components/ui";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";
import type { FaqRow } from "../model/settings-draft";

/** knowledge.faq as question/answer rows; the agent answers with the entry whose question best matches. */
export function FaqEditor({ rows, onChange, disabled }: { rows: FaqRow[]; onChange: (rows: FaqRow[]) => void; disabled?: boolean }) {
  const update = (index: number, patch: Partial<FaqRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="text-[13px] font-medium text-slate-800">FAQ</legend>
      <p className="text-xs text-slate-500">When no skill matches, the agent replies with the answer whose question best matches the message.</p>
      {rows.length === 0 && <p className="text-sm text-slate-500">No entries yet.</p>}
      <ol className="space-y-2">
        {rows.map((row, index) => (
          <li key={index} className="grid gap-2 rounded-md bg-slate-50 p-2.5 ring-1 ring-slate-200 sm:grid-cols-[1fr_1.5fr_auto]">
            <Input aria-label={`FAQ question ${index + 1}`} placeholder="Question" value={row.q} onChange={(e) => update(index, { q: e.target.value })} />
            <Textarea
              aria-label={`FAQ answer ${index + 1}`}
              placeholder="Answer"
              rows={2}
              value={row.a}
              onChange={(e) => update(index, { a: e.target.value })}
            />
            <Button size="icon" variant="ghost" aria-label={`Remove FAQ entry ${index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
              <TrashIcon />
            </Button>
          </li>
        ))}
      </ol>
      <Button size="sm" icon={<PlusIcon />} onClick={() => onChange([...rows, { q: "", a: "" }])}>
        Add FAQ entry
      </Button>
    </fieldset>
  );
}
