"use client";

import Link from "next/link";
import { Card, CardBody, CardHeader, ErrorState, PageHeader, SkeletonGroup, SkeletonText, Time } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { useAutomationRun } from "@/lib/client/automations-runs";
import { useAutomation } from "@/lib/client/automations-write";
import { RunStatusBadge } from "../run-item";
import { automationPath, WhyPanel } from "../why/why-view";
import { RunSteps } from "./run-steps";

const linkClass = "font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** /automations/runs/[runId]: one run step by step (followed while it goes), and why its message started it. */
export function RunPage({ projectId, runId }: { projectId: string; runId: string }) {
  const run = useAutomationRun(projectId, runId);
  const automation = useAutomation(projectId, run.data?.automation_id ?? null);
  const back = { href: projectPath(projectId, "automations"), label: "Automations" };
  if (run.isPending) {
    return (
      <SkeletonGroup label="Loading the run">
        <SkeletonText lines={5} />
      </SkeletonGroup>
    );
  }
  if (run.isError) {
    return (
      <div>
        <PageHeader title="Automation run" back={back} />
        <ErrorState
          error={run.error}
          title="Couldn't load the run (runs go when their automation is deleted)"
          onRetry={() => void run.refetch()}
          retrying={run.isFetching}
        />
      </div>
    );
  }
  const data = run.data;
  return (
    <div>
      <PageHeader
        title={automation.data ? `Run of ${automation.data.name}` : "Automation run"}
        back={back}
        meta={
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[13px] text-slate-600">
            <RunStatusBadge status={data.status} />
            <span>
              Started <Time value={data.started_at} />
              {data.ended_at && (
                <>
                  {" · ended "}
                  <Time value={data.ended_at} />
                </>
              )}
            </span>
            <Link className={linkClass} href={`${projectPath(projectId, "inbox")}?c=${encodeURIComponent(data.conversation_id)}`}>
              Open conversation
            </Link>
            {automation.data && (
              <Link className={linkClass} href={automationPath(projectId, automation.data.id)}>
                Open the automation
              </Link>
            )}
          </p>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1.3fr)_minmax(0,1fr)]">
        <Card aria-labelledby="run-steps-heading">
          <CardHeader title={<span id="run-steps-heading">Steps</span>} />
          <CardBody className="space-y-3">
            {data.error && (
              <p className="text-[13px] text-red-700" role="note">
                <code className="mr-1.5 rounded-sm bg-red-50 px-1 font-mono text-[12px]">{data.error.code}</code>
                {data.error.message}
              </p>
            )}
            <RunSteps projectId={projectId} run={data} definition={automation.data?.steps ?? []} />
          </CardBody>
        </Card>
        {data.trigger_message_id && (
          <Card aria-labelledby="run-why-heading">
            <CardHeader title={<span id="run-why-heading">Why it started</span>} />
            <CardBody>
              <WhyPanel projectId={projectId} messageId={data.trigger_message_id} linkRun={false} />
            </CardBody>
          </Card>
        )}
      </div>
    </div>
  );
}
