import { AlertIcon, XCircleIcon, cn } from "@/components/ui";
import type { ConfigIssue } from "@/lib/client/config";
import { splitIssues } from "./model/diff";

function IssueGroup({ issues, severity }: { issues: ConfigIssue[]; severity: "error" | "warning" }) {
  if (issues.length === 0) return null;
  const error = severity === "error";
  const Icon = error ? XCircleIcon : AlertIcon;
  const title = error ? `${issues.length} ${issues.length === 1 ? "error" : "errors"}` : `${issues.length} ${issues.length === 1 ? "warning" : "warnings"}`;
  return (
    <div className={cn("rounded-md px-3 py-2.5 ring-1", error ? "bg-red-50 ring-red-600/20" : "bg-amber-50 ring-amber-600/25")} data-issue-severity={severity}>
      <p className={cn("flex items-center gap-2 text-[13px] font-semibold", error ? "text-red-800" : "text-amber-900")}>
        <Icon className={error ? "text-red-600" : "text-amber-600"} />
        {title}
      </p>
      <ul aria-label={error ? "Errors" : "Warnings"} className="mt-1.5 space-y-1 pl-6">
        {issues.map((issue, index) => (
          <li key={`${issue.path}-${index}`} className={cn("text-[13px] leading-5", error ? "text-red-900" : "text-amber-950")}>
            {issue.path && <code className="mr-1.5 rounded-sm bg-white/70 px-1 font-mono text-[12px] ring-1 ring-black/5">{issue.path}</code>}
            {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A document's issues: errors first (nothing can be applied), then warnings (applies, but read them). */
export function IssueList({ issues }: { issues: readonly ConfigIssue[] }) {
  const { errors, warnings } = splitIssues(issues);
  if (issues.length === 0) return null;
  return (
    <div className="space-y-2">
      <IssueGroup issues={errors} severity="error" />
      <IssueGroup issues={warnings} severity="warning" />
    </div>
  );
}
