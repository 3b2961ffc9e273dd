"use client";

import { Badge, Time } from "@/components/ui";
import type { FunctionDraft, HostedFunction } from "@/lib/client/functions";
import type { SourceDraft } from "./use-source-draft";

/**
 * Where the editor's code stands, in plain words: what runs (the live version, or nothing yet), a saved
 * draft that is not deployed, edits not saved yet.
 */
export function DraftState({ fn, saved, draft }: { fn: HostedFunction; saved: FunctionDraft; draft: SourceDraft }) {
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="function-draft-state">
      {fn.active_version_id ? (
        <span className="text-[13px] text-slate-600">
          Live: <code className="font-mono text-[12px]">{fn.script_name}</code>
        </span>
      ) : (
        <Badge tone="warning">Not deployed yet</Badge>
      )}
      {draft.saved !== null && (
        <Badge tone="warning" dot>
          <span data-testid="function-draft-badge">Draft — not deployed</span>
        </Badge>
      )}
      {draft.saved !== null && saved.updated_at && (
        <span className="text-[13px] text-slate-600">
          saved <Time value={saved.updated_at} />
        </span>
      )}
      {draft.unsaved && (
        <Badge tone="info" dot>
          Unsaved changes
        </Badge>
      )}
    </div>
  );
}
