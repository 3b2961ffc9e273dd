"use client";

import { Field, Select } from "@/components/ui";
import type { Channel } from "@/lib/client/channels";
import { platformLabel } from "@/lib/shared/platforms";

function channelLabel(channel: Channel): string {
  const name = channel.display_name ?? channel.phone_number ?? channel.id;
  return channel.is_sandbox ? `${name} (shared sandbox)` : `${name} · ${platformLabel(channel.platform)}`;
}

/** The channel whose agent the page shows: the shared sandbox and the project's own channels. */
export function ChannelPicker({ channels, value, onChange }: { channels: Channel[]; value: string; onChange: (id: string) => void }) {
  return (
    <Field label="Channel" hint="One agent per channel. The shared sandbox is for testing from the Sandbox phone.">
      <Select value={value} onChange={(e) => onChange(e.target.value)}>
        {channels.map((channel) => (
          <option key={channel.id} value={channel.id}>
            {channelLabel(channel)}
          </option>
        ))}
      </Select>
    </Field>
  );
}
