"use client";

import { Button, Field, Select } from "@/components/ui";
import type { Channel } from "@/lib/client/channels";
import type { TemplateFilters, TemplateStatus } from "@/lib/client/templates";
import { channelLabel } from "./model/channels";
import { TEMPLATE_STATUSES } from "./model/vocabulary";
import { STATUS_LABELS } from "./template-badges";

/** Channel and status of the list (exact matches on the server: GET /templates?channel_id=&status=). */
export function TemplateFiltersBar({
  filters,
  onChange,
  channels,
}: {
  filters: TemplateFilters;
  onChange: (filters: TemplateFilters) => void;
  channels: readonly Channel[];
}) {
  const knownChannel = !filters.channel_id || channels.some((channel) => channel.id === filters.channel_id);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label="Channel" className="w-full sm:w-64">
        <Select value={filters.channel_id ?? ""} onChange={(e) => onChange({ ...filters, channel_id: e.target.value || undefined })}>
          <option value="">Any channel</option>
          {channels.map((channel) => (
            <option key={channel.id} value={channel.id}>
              {channelLabel(channel)}
            </option>
          ))}
          {!knownChannel && <option value={filters.channel_id}>{filters.channel_id}</option>}
        </Select>
      </Field>
      <Field label="Status" className="w-full sm:w-44">
        <Select value={filters.status ?? ""} onChange={(e) => onChange({ ...filters, status: (e.target.value || undefined) as TemplateStatus | undefined })}>
          <option value="">Any status</option>
          {TEMPLATE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </Select>
      </Field>
      {(filters.channel_id || filters.status) && (
        <Button variant="ghost" onClick={() => onChange({})}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
