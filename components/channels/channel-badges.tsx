import { Badge, type BadgeTone } from "@/components/ui";
import type { Channel, ChannelStatus } from "@/lib/client/channels";

const STATUS: Record<ChannelStatus, { tone: BadgeTone; label: string }> = {
  connected: { tone: "success", label: "Connected" },
  pending: { tone: "info", label: "Pending" },
  disconnected: { tone: "neutral", label: "Disconnected" },
  error: { tone: "danger", label: "Error" },
};

export function ChannelStatusBadge({ status }: { status: ChannelStatus }) {
  const look = STATUS[status] ?? { tone: "neutral" as const, label: status };
  return (
    <Badge tone={look.tone} dot>
      {look.label}
    </Badge>
  );
}

export function NumberModeBadge({ mode }: { mode: Channel["number_mode"] }) {
  return <Badge tone={mode === "sandbox" ? "accent" : "neutral"}>{mode === "sandbox" ? "Shared sandbox" : "Dedicated"}</Badge>;
}
