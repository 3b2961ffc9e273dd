import { Badge } from "@/components/ui";
import type { HostedFunction } from "@/lib/client/functions";
import { RUNTIME_LABELS } from "./model/starters";

/** Whether the function runs when called: active and deployed; "Not deployed" until its first deploy. */
export function FunctionStatus({ fn }: { fn: Pick<HostedFunction, "is_active" | "active_version_id" | "script_name"> }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-function-status={fn.is_active ? "active" : "inactive"}>
      <Badge tone={fn.is_active ? "success" : "neutral"} dot>
        {fn.is_active ? "Active" : "Inactive"}
      </Badge>
      {fn.active_version_id ? (
        <code className="font-mono text-[12px] text-slate-600">{fn.script_name}</code>
      ) : (
        <span className="text-[13px] text-slate-500">Not deployed</span>
      )}
    </span>
  );
}

/** The runtime detected at the last deploy; before one it says nothing useful, so a dash. */
export function RuntimeLabel({ fn }: { fn: Pick<HostedFunction, "runtime" | "active_version_id"> }) {
  if (!fn.active_version_id) return <span className="text-slate-500">—</span>;
  return (
    <span title={RUNTIME_LABELS[fn.runtime]} className="font-mono text-[12px] text-slate-700">
      {fn.runtime}
    </span>
  );
}

export const TRIGGER_LABELS: Record<HostedFunction["trigger_type"], string> = {
  KEYWORD: "Keyword",
  WELCOME: "Welcome",
  ANY_MESSAGE: "Any message",
};
