"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button, Card, CardBody, CardHeader, CheckCircleIcon, Field, Input, PageHeader, Spinner, Switch, XCircleIcon, useToast } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { useLeaveGuard } from "@/components/ui/use-leave-guard";
import type { Automation } from "@/lib/client/automations";
import { useSaveAutomation } from "@/lib/client/automations-write";
import { can, useCurrentProject } from "@/lib/client/me";
import { saveEffect } from "../model/effects";
import { KEY_PATTERN, draftOf, keyFromName, type AutomationDraft } from "../model/draft";
import { errorCount } from "../model/issue-fields";
import { ReviewDialog, type ReviewRequest } from "../review-dialog";
import { RoutingBanner } from "../routing-banner";
import { RunsPanel } from "../runs-panel";
import { TestPanel } from "../test/test-panel";
import { automationPath } from "../why/why-view";
import { StepsEditor } from "./steps-editor";
import { TriggerEditor } from "./trigger-editor";
import { useBuilder, type Builder } from "./use-builder";

function CheckLine({ builder }: { builder: Builder }) {
  const errors = errorCount(builder.placed);
  if (builder.checking) return <Spinner label="Checking with config validate…" />;
  if (builder.validationError) {
    return <p className="text-[13px] text-amber-800">Couldn&apos;t check it now ({builder.validationError.message}); saving checks it again.</p>;
  }
  if (errors === 0) {
    return (
      <p className="inline-flex items-center gap-1.5 text-[13px] text-emerald-700">
        <CheckCircleIcon /> No problems found
      </p>
    );
  }
  return (
    <p className="inline-flex items-center gap-1.5 text-[13px] font-medium text-red-700" data-error-count={errors}>
      <XCircleIcon /> {errors} {errors === 1 ? "problem" : "problems"} to fix, marked on the fields
    </p>
  );
}

function Basics({ builder, creating, onKeyTouched }: { builder: Builder; creating: boolean; onKeyTouched: () => void }) {
  const { draft } = builder;
  return (
    <Card aria-labelledby="builder-basics">
      <CardHeader title={<span id="builder-basics">Automation</span>} />
      <CardBody className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" error={builder.errorAt("name")}>
            <Input value={draft.name} maxLength={256} onChange={(e) => builder.update({ name: e.target.value })} />
          </Field>
          <Field
            label="Key"
            error={
              builder.errorAt("key") ??
              (draft.key && !KEY_PATTERN.test(draft.key) ? "Lower-case letters, digits, _ or -, starting with a letter or digit." : undefined)
            }
            hint={creating ? "Its name in the config document. It cannot change once saved." : "Its name in the config document (fixed)."}
          >
            <Input
              mono
              value={draft.key}
              readOnly={!creating}
              maxLength={64}
              onChange={(e) => {
                onKeyTouched();
                builder.update({ key: e.target.value });
              }}
            />
          </Field>
        </div>
        <Switch
          label="Active"
          description="On: it answers live customers once saved (you see what that does before it happens). Off: stored, silent."
          checked={draft.active}
          onCheckedChange={(active) => builder.update({ active })}
        />
        {builder.placed.general.map((issue, i) => (
          <p key={i} role="alert" className="text-[13px] font-medium text-red-600">
            {issue.message}
          </p>
        ))}
      </CardBody>
    </Card>
  );
}

/**
 * The builder (issue 34): the automation as a form (trigger, then a vertical list of step cards),
 * checked in place as it is edited; Save shows the change as the Config page's diff and what it does
 * to live traffic, then writes it. Beside it, the sandbox phone tests what is saved; under it, its runs.
 */
export function BuilderForm({ projectId, automation, initial }: { projectId: string; automation: Automation | null; initial: AutomationDraft }) {
  const router = useRouter();
  const toast = useToast();
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const builder = useBuilder(projectId, initial, automation?.key ?? null);
  const save = useSaveAutomation(projectId);
  const [keyTouched, setKeyTouched] = useState(Boolean(initial.key));
  const [review, setReview] = useState<ReviewRequest | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  useLeaveGuard(builder.dirty);
  const [openedAt, setOpenedAt] = useState(automation?.updated_at ?? null);
  const changedUnderneath = automation !== null && automation.updated_at !== openedAt;
  const { dirty, reset } = builder;
  // Saved here or applied from config: without edits in the way, the form follows what is stored.
  useEffect(() => {
    if (!automation || !changedUnderneath || dirty) return;
    reset(draftOf(automation));
    setOpenedAt(automation.updated_at);
  }, [automation, changedUnderneath, dirty, reset]);
  const loadStored = () => {
    if (!automation) return;
    reset(draftOf(automation));
    setOpenedAt(automation.updated_at);
  };

  const creating = automation === null;
  const name = builder.draft.name.trim() || "New automation";
  const setName = (value: string) => builder.update(keyTouched || !creating ? { name: value } : { name: value, key: keyFromName(value) });
  const wrapped: Builder = {
    ...builder,
    update: (patch) => (patch.name !== undefined && Object.keys(patch).length === 1 ? setName(patch.name) : builder.update(patch)),
  };

  const openReview = () =>
    setReview({
      change: { kind: "upsert", entry: builder.entry, originalKey: automation?.key ?? null },
      title: creating ? `Create “${name}”` : `Save “${name}”`,
      effect: saveEffect(builder.entry, automation ? { active: automation.active } : null),
      confirmLabel: creating ? "Create automation" : "Save changes",
      done: creating ? "created" : "saved",
      run: async () => {
        const saved = await save.mutateAsync({ id: automation?.id ?? null, write: builder.entry, idempotencyKey });
        builder.markSaved();
        toast.show({ tone: "success", title: creating ? `${saved.name} created` : `${saved.name} saved` });
        if (creating) router.replace(automationPath(projectId, saved.id));
      },
    });

  return (
    <div>
      <PageHeader
        title={creating ? "New automation" : builder.draft.name || automation.name}
        back={{ href: projectPath(projectId, "automations"), label: "Automations" }}
        description="What starts it, then its steps in order. Checked as you type with the same rules as the Config page; saved through the API after you see the change."
      />
      <RoutingBanner projectId={projectId} />
      {changedUnderneath && dirty && (
        <div
          role="alert"
          className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-600/25"
        >
          <p>This automation was changed elsewhere since you opened it (a config apply, or another operator). Saving would replace that change.</p>
          <Button size="sm" onClick={loadStored}>
            Discard my edits and load it
          </Button>
        </div>
      )}
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_23rem]">
        <div className="space-y-5">
          <Basics builder={wrapped} creating={creating} onKeyTouched={() => setKeyTouched(true)} />
          <Card aria-labelledby="builder-trigger">
            <CardHeader title={<span id="builder-trigger">Trigger</span>} />
            <CardBody>
              <TriggerEditor trigger={builder.draft.trigger} onChange={builder.setTrigger} errorAt={builder.errorAt} />
            </CardBody>
          </Card>
          <section aria-labelledby="builder-steps" className="space-y-3">
            <h2 id="builder-steps" className="text-sm font-semibold text-slate-900">
              Steps
            </h2>
            <StepsEditor builder={builder} projectId={projectId} />
          </section>
          <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center justify-between gap-3 rounded-lg bg-white/95 px-4 py-3 shadow-md ring-1 ring-slate-200 backdrop-blur">
            <CheckLine builder={builder} />
            <div className="flex items-center gap-2">
              {!canWrite && <span className="text-[13px] text-slate-500">Your role can read automations; a developer or admin saves them.</span>}
              <Button variant="primary" disabled={!canWrite || (!builder.dirty && !creating)} onClick={openReview}>
                {creating ? "Create…" : "Save…"}
              </Button>
            </div>
          </div>
          {automation && <RunsPanel projectId={projectId} automation={automation} />}
        </div>
        <TestPanel projectId={projectId} automation={automation} dirty={builder.dirty} />
      </div>
      <ReviewDialog
        projectId={projectId}
        request={review}
        onClose={() => setReview(null)}
        onRefused={(failure) => {
          builder.refuse(failure.issues ?? []);
          toast.show({ tone: "danger", title: "Not saved", description: failure.message });
        }}
      />
    </div>
  );
}
