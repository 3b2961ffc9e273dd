import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ReadinessFacts } from "./facts";

/** How issues and capability messages name a channel of the project's own. */
export function channelLabel(row: ChannelRow): string {
  return `your channel ${row.id}${row.phoneNumber ? ` (${row.phoneNumber})` : ""}`;
}

export function describeFailure(failure: ReadinessFacts["lastFailure"]): string {
  if (!failure) return "";
  if (failure.statusCode !== null) return ` (last answer: HTTP ${failure.statusCode})`;
  if (failure.error) return ` (last error: ${failure.error})`;
  return "";
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function joinList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
