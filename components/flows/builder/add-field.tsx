"use client";

import { useId, useState } from "react";
import { Button, PlusIcon, Select } from "@/components/ui";
import type { FlowDraftFieldType } from "@/lib/client/flows";
import { FIELD_TYPES, FIELD_TYPE_LABELS } from "../model/field-types";

/** Pick a type, then "Add field": every draft field type is one choice away. */
export function AddField({ screenLabel, onAdd }: { screenLabel: string; onAdd: (type: FlowDraftFieldType) => void }) {
  const [type, setType] = useState<FlowDraftFieldType>("text");
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Type of the new field on {screenLabel}
      </label>
      <Select id={id} className="w-44" value={type} onChange={(e) => setType(e.target.value as FlowDraftFieldType)}>
        {FIELD_TYPES.map((option) => (
          <option key={option} value={option}>
            {FIELD_TYPE_LABELS[option]}
          </option>
        ))}
      </Select>
      <Button size="md" icon={<PlusIcon size={14} />} onClick={() => onAdd(type)}>
        Add field
      </Button>
    </div>
  );
}
