import type { ReactNode } from "react";

/** The server writes commands in backticks (`join abc123`): show them as code instead of raw backticks. */
export function InlineCode({ text }: { text: string }): ReactNode {
  const parts = text.split(/`([^`]+)`/);
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      <code key={index} className="rounded bg-slate-100 px-1 py-px font-mono text-[0.92em] text-slate-800">
        {part}
      </code>
    ) : (
      part
    ),
  );
}
