"use client";

import { Checkbox, Field, Input, Select, cn } from "@/components/ui";
import type { FlowDraftFieldType } from "@/lib/client/flows";
import { changeFieldType, moveField, removeField, updateField, type FieldPatch } from "../model/draft-ops";
import { FIELD_TYPES, FIELD_TYPE_LABELS, hasHelperText, hasMaxLength, hasMinLength, hasOptions } from "../model/field-types";
import type { WorkingField } from "../model/working-draft";
import { invalidProp, type BuilderProps } from "./builder-context";
import { FindingList } from "./finding-list";
import { MoveButtons } from "./move-buttons";
import { OptionsEditor } from "./options-editor";

const optionalNumber = (text: string) => (text.trim() === "" || !Number.isFinite(Number(text)) ? undefined : Math.max(0, Math.trunc(Number(text))));

/** One field of a screen: its type, name (the submission's key: letters, digits and _), label, whether it is required, help, limits and options. */
export function FieldCard({ field, index, count, ...builder }: BuilderProps & { field: WorkingField; index: number; count: number }) {
  const { change, placed, readOnly } = builder;
  const findings = placed.fields.get(field.uid);
  const set = (patch: FieldPatch) => change((d) => updateField(d, field.uid, patch));
  const invalid = (prop: string) => invalidProp(placed, field.uid, prop);
  const title = `field ${field.name || index + 1}`;
  // What the type supports, and anything it does not but the saved field still has (its finding says to remove it).
  const showHelper = hasHelperText(field.type) || field.helper_text !== undefined;
  const showMin = hasMinLength(field.type) || field.min_length !== undefined;
  const showMax = hasMaxLength(field.type) || field.max_length !== undefined;
  return (
    <div
      role="group"
      aria-label={`Field ${index + 1}`}
      id={`flow-field-${field.uid}`}
      tabIndex={-1}
      data-field-name={field.name}
      className={cn("space-y-3 rounded-md bg-white p-3 ring-1 focus:outline-none", findings?.length ? "ring-red-300" : "ring-slate-200")}
    >
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0 truncate text-[13px] text-slate-500">
          <span className="font-medium text-slate-800">{FIELD_TYPE_LABELS[field.type] ?? field.type}</span>
          <code className="ml-2 font-mono text-[12px]">{field.name}</code>
        </p>
        {!readOnly && (
          <MoveButtons
            name={title}
            index={index}
            count={count}
            onMove={(delta) => change((d) => moveField(d, field.uid, delta))}
            onRemove={() => change((d) => removeField(d, field.uid))}
          />
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-[9.5rem_minmax(0,1fr)_minmax(0,1.3fr)]">
        <Field label="Type">
          <Select value={field.type} disabled={readOnly} onChange={(e) => change((d) => changeFieldType(d, field.uid, e.target.value as FlowDraftFieldType))}>
            {FIELD_TYPES.map((type) => (
              <option key={type} value={type}>
                {FIELD_TYPE_LABELS[type]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Name">
          <Input mono value={field.name} readOnly={readOnly} aria-invalid={invalid("name")} onChange={(e) => set({ name: e.target.value })} />
        </Field>
        <Field label="Label">
          <Input value={field.label} readOnly={readOnly} aria-invalid={invalid("label")} onChange={(e) => set({ label: e.target.value })} />
        </Field>
      </div>
      {(showHelper || showMin || showMax) && (
        <div className="flex flex-wrap gap-3">
          {showHelper && (
            <Field label="Helper text" optional className="min-w-48 flex-1">
              <Input
                value={field.helper_text ?? ""}
                readOnly={readOnly}
                aria-invalid={invalid("helper_text")}
                onChange={(e) => set({ helper_text: e.target.value || undefined })}
              />
            </Field>
          )}
          {showMin && (
            <Field label="Min length" className="w-28">
              <Input
                type="number"
                min={0}
                value={field.min_length ?? ""}
                readOnly={readOnly}
                aria-invalid={invalid("min_length")}
                onChange={(e) => set({ min_length: optionalNumber(e.target.value) })}
              />
            </Field>
          )}
          {showMax && (
            <Field label="Max length" className="w-28">
              <Input
                type="number"
                min={1}
                value={field.max_length ?? ""}
                readOnly={readOnly}
                aria-invalid={invalid("max_length")}
                onChange={(e) => set({ max_length: optionalNumber(e.target.value) })}
              />
            </Field>
          )}
        </div>
      )}
      <Checkbox label="Required" checked={field.required === true} disabled={readOnly} onChange={(e) => set({ required: e.target.checked || undefined })} />
      {hasOptions(field.type) && (
        <OptionsEditor {...builder} fieldUid={field.uid} fieldName={field.name || `field ${index + 1}`} options={field.options ?? []} />
      )}
      <FindingList findings={findings} label={`Problems with ${title}`} />
    </div>
  );
}
