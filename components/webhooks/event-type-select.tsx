"use client";

import { Select } from "@/components/ui";
import { EVENT_TYPES } from "@/lib/client/webhooks";

/** Every webhook event type, with "" for all of them: the log's filter and the replay dialog share it. */
export function EventTypeSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <Select value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">All event types</option>
      {EVENT_TYPES.map((type) => (
        <option key={type} value={type}>
          {type}
        </option>
      ))}
    </Select>
  );
}
