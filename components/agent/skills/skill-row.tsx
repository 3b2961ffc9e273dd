"use client";

import { Button, Field, Input, Select, Textarea } from "@/components/ui";
import { TrashIcon } from "@/components/ui/icons";
import { ChipsInput } from "../chips-input";
import type { SkillDraft } from "../model/skill-draft";

/** One skill of the editor, with the API's issues on their fields. */
export function SkillRow({
  index,
  skill,
  toolNames,
  issues,
  onChange,
  onRemove,
}: {
  index: number;
  skill: SkillDraft;
  toolNames: string[];
  issues: Record<string, string | undefined>;
  onChange: (skill: SkillDraft) => void;
  onRemove: () => void;
}) {
  const set = (patch: Partial<SkillDraft>) => onChange({ ...skill, ...patch });
  const label = skill.name || `skill ${index + 1}`;
  // A stored tool name that no tool has any more still shows, so the 422 on it makes sense.
  const options = skill.tool && !toolNames.includes(skill.tool) ? [...toolNames, skill.tool] : toolNames;
  return (
    <li className="space-y-3 rounded-md p-3 ring-1 ring-slate-200" aria-label={`Skill ${label}`}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" error={issues.name} hint="A slug: lower-case letters, digits, - and _.">
          <Input mono value={skill.name} onChange={(e) => set({ name: e.target.value })} aria-label={`Skill ${index + 1} name`} />
        </Field>
        <Field label="Tool" optional error={issues.tool}>
          <Select value={skill.tool} onChange={(e) => set({ tool: e.target.value })} aria-label={`Skill ${index + 1} tool`}>
            <option value="">No tool</option>
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Description" error={issues.description} className="sm:col-span-2">
          <Input value={skill.description} onChange={(e) => set({ description: e.target.value })} aria-label={`Skill ${index + 1} description`} />
        </Field>
        <div className="space-y-1.5 sm:col-span-2">
          <p className="text-[13px] font-medium text-slate-800">Triggers</p>
          <ChipsInput label={`Skill ${index + 1} trigger`} values={skill.triggers} onChange={(triggers) => set({ triggers })} invalid={!!issues.triggers} />
          {issues.triggers && (
            <p role="alert" className="text-xs font-medium text-red-600">
              {issues.triggers}
            </p>
          )}
        </div>
        <Field
          label="Response"
          optional
          error={issues.response ?? issues[""]}
          hint="The reply; with a tool, the tool's result text is used when this is empty."
          className="sm:col-span-2"
        >
          <Textarea rows={2} value={skill.response} onChange={(e) => set({ response: e.target.value })} aria-label={`Skill ${index + 1} response`} />
        </Field>
      </div>
      <Button size="sm" variant="ghost" icon={<TrashIcon />} onClick={onRemove}>
        Remove skill
      </Button>
    </li>
  );
}
