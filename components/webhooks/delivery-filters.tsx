"use client";

import { Button, Field, Select } from "@/components/ui";
import { DELIVERY_STATUSES } from "@/lib/client/webhooks";
import { STATUS_LABELS } from "./delivery-status-badge";
import { SINCE_PRESETS, type LogParams } from "./use-log-params";
import { EventTypeSelect } from "./event-type-select";

/** Event type, status and time window of the deliveries list; each change lands in the URL at once. */
export function DeliveryFilters({ params, onChange, hasFilters }: { params: LogParams; onChange: (changes: Partial<LogParams>) => void; hasFilters: boolean }) {
  const customSince = params.since && !SINCE_PRESETS.some((p) => p.value === params.since);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label="Event type" className="w-full sm:w-52">
        <EventTypeSelect value={params.event} onChange={(event) => onChange({ event })} />
      </Field>
      <Field label="Status" className="w-[calc(50%-0.375rem)] sm:w-40">
        <Select value={params.status} onChange={(e) => onChange({ status: e.target.value })}>
          <option value="">Any status</option>
          {DELIVERY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Created" className="w-[calc(50%-0.375rem)] sm:w-44">
        <Select value={params.since} onChange={(e) => onChange({ since: e.target.value })}>
          <option value="">Any time</option>
          {SINCE_PRESETS.map((preset) => (
            <option key={preset.value} value={preset.value}>
              {preset.label}
            </option>
          ))}
          {customSince && <option value={params.since}>Since {new Date(params.since).toLocaleString("en")}</option>}
        </Select>
      </Field>
      {hasFilters && (
        <Button variant="ghost" onClick={() => onChange({ event: "", status: "", since: "" })}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
