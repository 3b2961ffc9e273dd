"use client";

import { useState } from "react";
import { cn } from "./cn";
import { CopyButton } from "./copy-button";
import { EyeIcon, EyeOffIcon } from "./icons";

/** A monospace value with a copy button: ids, URLs, curl commands. Long values scroll, never wrap mid-token. */
export function CodeBlock({ value, label = "code", multiline, className }: { value: string; label?: string; multiline?: boolean; className?: string }) {
  return (
    <div className={cn("group relative flex min-w-0 items-start gap-1 rounded-md bg-slate-50 ring-1 ring-slate-200 ring-inset", className)}>
      {/* Focusable: a value wider than the box scrolls, and the keyboard must be able to scroll it too. */}
      <pre
        tabIndex={0}
        className={cn(
          "min-w-0 flex-1 overflow-x-auto rounded-md px-3 py-2 font-mono text-[13px] leading-5 text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600",
          multiline ? "whitespace-pre" : "whitespace-nowrap",
        )}
      >
        <code>{value}</code>
      </pre>
      <div className="shrink-0 p-0.5">
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}

/** Keeps a recognisable prefix (e.g. "svc_live_") and hides the rest. */
function mask(value: string): string {
  const prefix = /^[a-z]+_(?:[a-z]+_)?/i.exec(value)?.[0] ?? "";
  return prefix + "•".repeat(Math.min(24, Math.max(8, value.length - prefix.length)));
}

export interface SecretProps {
  value: string;
  /** What it is ("API key", "signing secret"): names the buttons ("Show API key", "Copy API key"). */
  label: string;
  /** Show the value at first (e.g. right after creation, when it is shown once). */
  defaultRevealed?: boolean;
  className?: string;
}

/** A secret shown masked, with Show/Hide and Copy (Copy works while hidden). */
export function Secret({ value, label, defaultRevealed = false, className }: SecretProps) {
  const [revealed, setRevealed] = useState(defaultRevealed);
  return (
    <div className={cn("flex min-w-0 items-center gap-1 rounded-md bg-slate-50 py-0.5 pr-0.5 pl-3 ring-1 ring-slate-200 ring-inset", className)}>
      <code className="min-w-0 flex-1 overflow-x-auto py-1.5 font-mono text-[13px] whitespace-nowrap text-slate-800">
        {revealed ? (
          value
        ) : (
          <>
            <span aria-hidden="true">{mask(value)}</span>
            <span className="sr-only">{label} hidden</span>
          </>
        )}
      </code>
      <button
        type="button"
        onClick={() => setRevealed((current) => !current)}
        aria-pressed={revealed}
        aria-label={`${revealed ? "Hide" : "Show"} ${label}`}
        title={`${revealed ? "Hide" : "Show"} ${label}`}
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-200/60 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {revealed ? <EyeOffIcon /> : <EyeIcon />}
      </button>
      <CopyButton value={value} label={label} />
    </div>
  );
}

/**
 * A secret the operator may not see (the server withheld it, e.g. the signing secret from a viewer):
 * masked, with no Show or Copy, in the same frame as `Secret` so a card looks alike for every role.
 */
export function WithheldSecret({ label, prefix = "", className }: { label: string; prefix?: string; className?: string }) {
  return (
    <div
      data-testid="withheld-secret"
      className={cn("flex min-h-9 min-w-0 items-center rounded-md bg-slate-50 py-0.5 pr-0.5 pl-3 ring-1 ring-slate-200 ring-inset", className)}
    >
      <code className="min-w-0 flex-1 overflow-x-auto py-1.5 font-mono text-[13px] whitespace-nowrap text-slate-500">
        <span aria-hidden="true">{prefix + "•".repeat(24)}</span>
        <span className="sr-only">{label} hidden</span>
      </code>
    </div>
  );
}
