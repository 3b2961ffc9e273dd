"use client";

import { useMemo, useState } from "react";
import { Button, Field, Input, Select } from "@/components/ui";
import type { ComposedContent } from "@/lib/client/inbox";
import { useTemplates, type Template } from "@/lib/client/templates";
import { componentsFor, parametersFault, variableKeys } from "@/lib/shared/broadcasts/parameters";
import { MEDIA_HEADER_FORMATS } from "@/lib/shared/templates/types";
import { templateShape } from "@/lib/shared/templates/validate";

/**
 * An approved template with its variables: what may still be sent once the 24-hour window has
 * closed (PLATFORM_A). The parameters are checked by the same rule POST /messages applies.
 */
export function TemplateForm({
  projectId,
  channelId,
  disabled,
  onSend,
}: {
  projectId: string;
  channelId: string;
  disabled: boolean;
  onSend: (content: ComposedContent) => void;
}) {
  const templates = useTemplates(projectId, { channel_id: channelId, status: "APPROVED" });
  const list = useMemo(() => templates.data?.pages.flatMap((page) => page.data) ?? [], [templates.data]);
  const [chosenId, setChosenId] = useState("");
  const [values, setValues] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const chosen = list.find((template) => template.id === chosenId) ?? null;
  const shape = useMemo(() => (chosen ? shapeOf(chosen) : null), [chosen]);
  const mediaHeader = Boolean(shape?.header_format && MEDIA_HEADER_FORMATS.has(shape.header_format));
  const keys = shape ? variableKeys(shape) : [];
  const fault = shape && !mediaHeader ? parametersFault(shape, keys.length ? values : null) : null;

  if (templates.isPending) return <p className="text-xs text-slate-500">Loading approved templates…</p>;
  if (list.length === 0) {
    return (
      <p className="text-xs text-slate-600">This channel has no approved template yet. Create one on the Templates page; once approved it can be sent here.</p>
    );
  }

  const submit = () => {
    setTouched(true);
    if (!chosen || !shape || fault || mediaHeader || disabled) return;
    const components = componentsFor(shape, keys.length ? values : null);
    onSend({ template: { id: chosen.id, ...(components ? { components } : {}) } });
    setValues({});
    setTouched(false);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="space-y-2"
    >
      <Field label="Approved template">
        <Select
          value={chosenId}
          onChange={(event) => {
            setChosenId(event.target.value);
            setValues({});
          }}
          disabled={disabled}
        >
          <option value="">Choose a template…</option>
          {list.map((template) => (
            <option key={template.id} value={template.id}>
              {template.name} ({template.language})
            </option>
          ))}
        </Select>
      </Field>
      {mediaHeader && <p className="text-xs text-amber-800">This template needs a header file: send it through the API (POST /messages with template).</p>}
      {keys.length > 0 && (
        <div className="grid gap-2 sm:grid-cols-2">
          {keys.map((key) => (
            <Field key={key} label={`Variable {{${key}}}`}>
              <Input value={values[key] ?? ""} onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.value }))} disabled={disabled} />
            </Field>
          ))}
        </div>
      )}
      {touched && fault && <p className="text-xs font-medium text-red-600">{fault.message}</p>}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={disabled || !chosen || mediaHeader}>
          Send template
        </Button>
      </div>
    </form>
  );
}

/** The wire carries no parameter_format: the variables' names tell it (templateShape's own rule). */
const shapeOf = (template: Template) => templateShape(template.components);
