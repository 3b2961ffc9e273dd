"use client";

import Link from "next/link";
import { useId } from "react";
import { Badge, Button, ButtonLink, Card, CardBody, CardHeader, ChevronDownIcon, CopyIcon, Switch, TrashIcon, useToast } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { useSetAutomationActive, type Automation } from "@/lib/client/automations";
import { useDeleteAutomation, useMoveAutomation } from "@/lib/client/automations-write";
import { TriggerIcon } from "@/components/ui/icons";
import { activeEffect, deleteEffect, moveEffect } from "./model/effects";
import { triggerSummary } from "./model/summaries";
import type { ReviewRequest } from "./review-dialog";
import { RunsPanel } from "./runs-panel";
import { StepList } from "./step-list";
import { automationPath } from "./why/why-view";

const TRIGGER_LABELS: Record<Automation["trigger"]["type"], string> = { KEYWORD: "Keyword", WELCOME: "Welcome", ANY_MESSAGE: "Any message" };

export interface CardPlace {
  index: number;
  count: number;
}

/**
 * Switching off applies at once (it only stops new runs: the safe way out, never behind a dialog);
 * switching on shows what will start answering customers first.
 */
function ActiveSwitch({
  projectId,
  automation,
  canWrite,
  onReview,
}: {
  projectId: string;
  automation: Automation;
  canWrite: boolean;
  onReview: (r: ReviewRequest) => void;
}) {
  const setActive = useSetAutomationActive(projectId);
  const toast = useToast();
  // mutateAsync: each flip reports its own outcome, even when the operator flips twice before the first answer.
  const change = (active: boolean) =>
    setActive.mutateAsync({ automationId: automation.id, active }).then(
      () => void toast.show({ tone: "success", title: `${automation.name} is ${active ? "on" : "off"}` }),
      (error: Error) =>
        void toast.show({ tone: "danger", title: `Couldn't turn ${automation.name} ${active ? "on" : "off"}`, description: `${error.message} Try again.` }),
    );
  const flip = (active: boolean) => {
    if (!active) return void change(false);
    onReview({
      change: { kind: "active", key: automation.key, active: true },
      title: `Switch on “${automation.name}”`,
      effect: activeEffect(automation, true),
      confirmLabel: "Switch on",
      done: "switched on",
      run: () =>
        setActive.mutateAsync({ automationId: automation.id, active: true }).then(() => toast.show({ tone: "success", title: `${automation.name} is on` })),
    });
  };
  return <Switch label="Active" checked={automation.active} disabled={!canWrite} loading={setActive.isPending} onCheckedChange={flip} />;
}

function CardActions({
  projectId,
  automation,
  place,
  canWrite,
  onReview,
}: {
  projectId: string;
  automation: Automation;
  place: CardPlace;
  canWrite: boolean;
  onReview: (r: ReviewRequest) => void;
}) {
  const move = useMoveAutomation(projectId);
  const remove = useDeleteAutomation(projectId);
  const toast = useToast();
  const moveTo = (position: number) =>
    onReview({
      change: { kind: "move", key: automation.key, position },
      title: `Move “${automation.name}” ${position < place.index ? "up" : "down"}`,
      effect: moveEffect(automation, place.index, position, place.count),
      confirmLabel: "Move",
      done: "moved",
      run: () => move.mutateAsync({ automationId: automation.id, position }),
    });
  const askDelete = () =>
    onReview({
      change: { kind: "delete", key: automation.key },
      title: `Delete “${automation.name}”`,
      effect: deleteEffect(automation),
      confirmLabel: "Delete automation",
      done: "deleted",
      tone: "danger",
      run: () => remove.mutateAsync(automation.id).then(() => toast.show({ tone: "success", title: `${automation.name} deleted` })),
    });
  const name = automation.name;
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <ButtonLink size="sm" href={automationPath(projectId, automation.id)}>
        {canWrite ? "Edit" : "Open"}
      </ButtonLink>
      {canWrite && (
        <>
          <ButtonLink
            size="sm"
            icon={<CopyIcon />}
            href={`${projectPath(projectId, "automations/new")}?from=${encodeURIComponent(automation.id)}`}
            aria-label={`Duplicate ${name}`}
          >
            Duplicate
          </ButtonLink>
          <Button size="icon" variant="ghost" aria-label={`Move ${name} up`} disabled={place.index === 0} onClick={() => moveTo(place.index - 1)}>
            <ChevronDownIcon className="rotate-180" />
          </Button>
          <Button
            size="icon"
            variant="ghost"
            aria-label={`Move ${name} down`}
            disabled={place.index >= place.count - 1}
            onClick={() => moveTo(place.index + 1)}
          >
            <ChevronDownIcon />
          </Button>
          <Button size="icon" variant="ghost" aria-label={`Delete ${name}`} onClick={askDelete}>
            <TrashIcon />
          </Button>
        </>
      )}
    </div>
  );
}

/** One automation: what starts it, its steps in order, its place in the list, the on/off switch and its recent runs. */
export function AutomationCard({
  projectId,
  automation,
  canWrite,
  place,
  onReview,
}: {
  projectId: string;
  automation: Automation;
  canWrite: boolean;
  place: CardPlace;
  onReview: (r: ReviewRequest) => void;
}) {
  const headingId = useId();
  const { trigger } = automation;
  return (
    <Card aria-labelledby={headingId} data-automation-key={automation.key}>
      <CardHeader
        title={
          <span className="inline-flex flex-wrap items-center gap-2">
            <span aria-hidden="true" className="text-slate-500 tabular-nums">
              {place.index + 1}.
            </span>
            <span id={headingId} className="inline-flex flex-wrap items-center gap-2">
              <Link href={automationPath(projectId, automation.id)} className="hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600">
                {automation.name}
              </Link>
              {!automation.active && <Badge>Off</Badge>}
            </span>
          </span>
        }
        description={
          <span>
            Key <code className="font-mono text-[12px] text-slate-700">{automation.key}</code> · priority {place.index + 1} of {place.count}
          </span>
        }
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <CardActions projectId={projectId} automation={automation} place={place} canWrite={canWrite} onReview={onReview} />
            <ActiveSwitch projectId={projectId} automation={automation} canWrite={canWrite} onReview={onReview} />
          </div>
        }
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
