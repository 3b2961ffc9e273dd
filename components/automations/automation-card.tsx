"use client";

import { useId } from "react";
import { Badge, Card, CardBody, CardHeader, Switch, useToast } from "@/components/ui";
import { useSetAutomationActive, type Automation } from "@/lib/client/automations";
import { TriggerIcon } from "@/components/ui/icons";
import { triggerSummary } from "./model/summaries";
import { RunsPanel } from "./runs-panel";
import { StepList } from "./step-list";

const TRIGGER_LABELS: Record<Automation["trigger"]["type"], string> = { KEYWORD: "Keyword", WELCOME: "Welcome", ANY_MESSAGE: "Any message" };

function ActiveSwitch({ projectId, automation, canWrite }: { projectId: string; automation: Automation; canWrite: boolean }) {
  const setActive = useSetAutomationActive(projectId);
  const toast = useToast();
  // mutateAsync: each flip reports its own outcome, even when the operator flips twice before the first answer.
  const change = (active: boolean) =>
    setActive.mutateAsync({ automationId: automation.id, active }).then(
      () => void toast.show({ tone: "success", title: `${automation.name} is ${active ? "on" : "off"}` }),
      (error: Error) => void toast.show({ tone: "danger", title: `Couldn't turn ${automation.name} ${active ? "on" : "off"}`, description: error.message }),
    );
  return (
    <Switch label="Active" checked={automation.active} disabled={!canWrite} loading={setActive.isPending} onCheckedChange={(active) => void change(active)} />
  );
}

/** One automation: what starts it, its steps in order, the on/off switch and its recent runs. */
export function AutomationCard({ projectId, automation, canWrite }: { projectId: string; automation: Automation; canWrite: boolean }) {
  const headingId = useId();
  const { trigger } = automation;
  return (
    <Card aria-labelledby={headingId} data-automation-key={automation.key}>
      <CardHeader
        title={
          <span id={headingId} className="inline-flex flex-wrap items-center gap-2">
            {automation.name}
            {!automation.active && <Badge>Off</Badge>}
          </span>
        }
        description={
          <span>
            Key <code className="font-mono text-[12px] text-slate-700">{automation.key}</code>
          </span>
        }
        actions={<ActiveSwitch projectId={projectId} automation={automation} canWrite={canWrite} />}
      />
      <CardBody className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
        <div className="space-y-4">
          <div className="flex items-start gap-3 rounded-md bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200" data-trigger-type={trigger.type}>
            <TriggerIcon className="mt-0.5 shrink-0 text-slate-500" />
            <div className="min-w-0 text-sm leading-5">
              <p className="text-[11px] font-medium tracking-wide text-slate-500 uppercase">
                Trigger · {TRIGGER_LABELS[trigger.type]}
                {trigger.type === "KEYWORD" && <span className="ml-1 font-mono normal-case">{trigger.match_mode ?? "CONTAINS_WORD"}</span>}
              </p>
              <p className="break-words text-slate-900">{triggerSummary(trigger)}</p>
            </div>
          </div>
          <StepList steps={automation.steps} label={`Steps of ${automation.name}`} />
        </div>
        <RunsPanel projectId={projectId} automation={automation} />
      </CardBody>
    </Card>
  );
}
