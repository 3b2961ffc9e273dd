"use client";

import { Button, ButtonLink, Card, CardBody, CardFooter, CardHeader, CheckCircleIcon, ErrorState, XCircleIcon } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import type { ConfigApply, ConfigDiff } from "@/lib/client/config";
import { DiffList } from "./diff-list";
import { IssueList } from "./issue-list";
import { canApply, diffHeadline, issuesFromError, splitIssues } from "./model/diff";
import type { ConfigDraft } from "./use-config-draft";

function applyBlocker(result: ConfigDiff, stale: boolean, canWrite: boolean): string | null {
  if (!canWrite) return "Your role can compare a document; a developer or admin can apply it.";
  if (stale) return "The document changed since this preview: preview it again before applying.";
  if (!result.valid || splitIssues(result.issues).errors.length)
    return "Fix the errors above, then preview again. Nothing is applied while the document has errors.";
  return null;
}

/** What applying would change, the document's issues, and the Apply button (closed while there are errors). */
function DiffCard({ draft, result, canWrite }: { draft: ConfigDraft; result: ConfigDiff; canWrite: boolean }) {
  const blocker = applyBlocker(result, draft.stale, canWrite);
  return (
    <Card aria-labelledby="config-diff-heading" data-config-diff={result.valid ? "valid" : "invalid"}>
      <CardHeader title={<span id="config-diff-heading">Changes</span>} description={diffHeadline(result.diff, "planned")} />
      <CardBody className="space-y-4">
        <IssueList issues={result.issues} />
        <DiffList items={result.diff} tense="planned" label="Changes to apply" />
      </CardBody>
      <CardFooter className="justify-between">
        <p className="text-[13px] text-slate-500">{blocker ?? "Applied in one transaction: all of it or nothing."}</p>
        <Button variant="primary" disabled={!canWrite || !canApply(result, draft.stale)} loading={draft.apply.isPending} onClick={draft.applyPreviewed}>
          Apply
        </Button>
      </CardFooter>
    </Card>
  );
}

function AppliedCard({ projectId, result }: { projectId: string; result: ConfigApply }) {
  return (
    <Card aria-labelledby="config-applied-heading" data-config-applied="true">
      <CardHeader
        title={
          <span id="config-applied-heading" className="inline-flex items-center gap-2 text-emerald-700">
            <CheckCircleIcon /> Applied
          </span>
        }
        description={diffHeadline(result.diff, "done")}
        actions={
          <ButtonLink size="sm" href={projectPath(projectId, "automations")}>
            View automations
          </ButtonLink>
        }
      />
      <CardBody className="space-y-4">
        <IssueList issues={result.issues} />
        <DiffList items={result.diff} tense="done" label="Applied changes" />
      </CardBody>
    </Card>
  );
}

function RefusedCard({ error, title }: { error: unknown; title: string }) {
  const issues = issuesFromError(error);
  if (!issues) return <ErrorState error={error} title={title} />;
  return (
    <Card aria-labelledby="config-refused-heading">
      <CardHeader
        title={
          <span id="config-refused-heading" className="inline-flex items-center gap-2 text-red-700">
            <XCircleIcon /> {title}
          </span>
        }
        description="Nothing was written. Fix the document and preview it again."
      />
      <CardBody>
        <IssueList issues={issues} />
      </CardBody>
    </Card>
  );
}

/** Below the draft: the diff of the previewed text, then what the apply did (or why it was refused). */
export function PreviewPanel({ projectId, draft, canWrite }: { projectId: string; draft: ConfigDraft; canWrite: boolean }) {
  const { diff, apply } = draft;
  if (apply.data) return <AppliedCard projectId={projectId} result={apply.data} />;
  return (
    <div className="space-y-4">
      {diff.isError && <RefusedCard error={diff.error} title="Couldn't compare the document" />}
      {diff.data && <DiffCard draft={draft} result={diff.data} canWrite={canWrite} />}
      {apply.isError && <RefusedCard error={apply.error} title="Not applied" />}
    </div>
  );
}
