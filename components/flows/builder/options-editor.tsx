"use client";

import { Button, Input, PlusIcon, TrashIcon } from "@/components/ui";
import type { FlowDraftOption } from "@/lib/client/flows";
import { addOption, removeOption, updateOption } from "../model/draft-ops";
import { invalidProp, type BuilderProps } from "./builder-context";
import { FindingList } from "./finding-list";

/** The choices of a dropdown, single or multiple choice field: each an id (what the submission carries) and a title (what the customer sees). */
export function OptionsEditor({
  fieldUid,
  fieldName,
  options,
  change,
  placed,
  readOnly,
}: BuilderProps & { fieldUid: string; fieldName: string; options: FlowDraftOption[] }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-[13px] font-medium text-slate-800">Options</legend>
      <ol className="space-y-2">
        {options.map((option, index) => {
          const key = `${fieldUid}/${index}`;
          return (
            <li key={index} className="space-y-1.5">
              <div className="flex items-center gap-2">
                <span className="w-5 text-right text-xs text-slate-500 tabular-nums">{index + 1}</span>
                <div className="w-36 shrink-0">
                  <Input
                    aria-label={`${fieldName} option ${index + 1} ID`}
                    mono
                    value={option.id}
                    readOnly={readOnly}
                    aria-invalid={invalidProp(placed, key, "id")}
                    onChange={(e) => change((d) => updateOption(d, fieldUid, index, { id: e.target.value }))}
                  />
                </div>
                <div className="min-w-0 flex-1">
                  <Input
                    aria-label={`${fieldName} option ${index + 1} title`}
                    value={option.title}
                    readOnly={readOnly}
                    aria-invalid={invalidProp(placed, key, "title")}
                    onChange={(e) => change((d) => updateOption(d, fieldUid, index, { title: e.target.value }))}
                  />
                </div>
                <Button
                  size="icon"
                  variant="ghost"
                  className="size-8 text-slate-500 hover:text-red-700"
                  aria-label={`Remove ${fieldName} option ${index + 1}`}
                  disabled={readOnly}
                  onClick={() => change((d) => removeOption(d, fieldUid, index))}
                >
                  <TrashIcon />
                </Button>
              </div>
              <FindingList findings={placed.options.get(key)} label={`Problems with ${fieldName} option ${index + 1}`} />
            </li>
          );
        })}
      </ol>
      {!readOnly && (
        <Button size="sm" variant="ghost" icon={<PlusIcon size={14} />} onClick={() => change((d) => addOption(d, fieldUid))}>
          Add option
        </Button>
      )}
    </fieldset>
  );
}
