import type { Channel } from "@/lib/client/channels";
import type { Conversation, Message } from "@/lib/client/inbox";

/** Who the conversation is with, as a person reads it: the name, else the number, else the id. */
export function contactLabel(conversation: Pick<Conversation, "name" | "phone" | "contact_id">): string {
  return conversation.name?.trim() || conversation.phone || conversation.contact_id;
}

export function initialsOf(label: string): string {
  const words = label
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (!words.length) return "?";
  if (/^\d/.test(words[0]!)) return words[0]!.slice(-2);
  return (words[0]![0]! + (words[1]?.[0] ?? "")).toUpperCase();
}

export function channelLabel(channel: Channel): string {
  return channel.display_name || channel.phone_number || channel.id;
}

const TYPE_LABELS: Record<string, string> = {
  image: "Photo",
  video: "Video",
  audio: "Audio",
  document: "Document",
  sticker: "Sticker",
  location: "Location",
  contacts: "Contact card",
  interactive: "Interactive message",
  template: "Template message",
  reaction: "Reaction",
  system: "System notice",
  unsupported: "Unsupported message",
  edit: "Edited message",
  revoke: "Deleted message",
};

/** One line for the conversation list: the text when there is one, else what kind of message it is. */
export function previewOf(message: Message): string {
  if (message.status === "deleted" || message.type === "revoke") return "Message deleted";
  const label = TYPE_LABELS[message.type];
  const text = message.content?.trim() || (typeof message.media?.caption === "string" ? message.media.caption : "");
  if (message.type === "reaction") return text ? `Reacted ${text}` : "Removed a reaction";
  if (message.type === "location") return text ? `Location: ${text}` : "Location";
  if (message.type === "interactive" && message.direction === "inbound") return text ? `Tapped “${text}”` : "Replied to an interactive message";
  if (label && text) return `${label}: ${text}`;
  return text || label || message.type;
}

export function formatBytes(bytes: number | null | undefined): string | null {
  if (typeof bytes !== "number" || !Number.isFinite(bytes)) return null;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "3 h 12 min", "45 min", "under a minute". */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "under a minute";
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

export function formatClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleTimeString("en", { hour: "2-digit", minute: "2-digit", hour12: false });
}

/** "Today", "Yesterday", "Mon, Nov 18", "Nov 18, 2025": the day separators of a thread. */
export function formatDay(iso: string, now: number = Date.now()): string {
  const date = new Date(iso);
  const today = new Date(now);
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOf(today) - startOf(date)) / 86_400_000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  if (date.getFullYear() === today.getFullYear()) return date.toLocaleDateString("en", { weekday: "short", month: "short", day: "numeric" });
  return date.toLocaleDateString("en", { month: "short", day: "numeric", year: "numeric" });
}
