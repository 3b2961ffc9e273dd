"use client";

import { useState } from "react";
import { Card, CardBody, CardHeader, Switch, cn, useToast } from "@/components/ui";
import { ROUTING_MODES, useUpdateProject, type Project, type ProjectUpdate, type RoutingMode } from "@/lib/client/projects";
import { ROUTING_EVENTS_NOTE, ROUTING_RULE, ROUTING_SENTENCES } from "@/lib/shared/routing-modes";
import { SECTION_IDS } from "./links";

/** The modes' names; what each does is lib/shared/routing-modes.ts's sentence, the same on every page. */
const MODE_NAMES: Record<RoutingMode, string> = { EXTERNAL: "External", FLOWS: "Flows", AGENT: "Agent" };

/** Routing and opt-in apply at once: the switch and radios update optimistically and roll back if refused. */
export function SettingsCard({ project, canWrite }: { project: Project; canWrite: boolean }) {
  const update = useUpdateProject(project.id);
  const toast = useToast();

  // mutateAsync, not mutate's callbacks: those fire for the latest call only, and an operator may flip
  // the switch and pick a routing before the first answer is back. Each change reports its own outcome.
  const save = (change: ProjectUpdate, saved: string) =>
    update.mutateAsync(change).then(
      () => void toast.show({ tone: "success", title: saved }),
      (error: Error) => void toast.show({ tone: "danger", title: "Couldn't save the setting", description: error.message }),
    );
  // The cache's optimistic value renders a task later; until then React would put the browser's
  // checked radio back. The clicked mode shows at once and gives way to the cache once saved.
  const [clickedMode, setClickedMode] = useState<RoutingMode | null>(null);
  const chooseRouting = (mode: RoutingMode) => {
    setClickedMode(mode);
    void save({ routing_mode: mode }, `Routing set to ${MODE_NAMES[mode]}`).finally(() => setClickedMode((current) => (current === mode ? null : current)));
  };
  const routingMode = clickedMode ?? project.routing_mode;

  return (
    <Card id={SECTION_IDS.settings} aria-labelledby="settings-heading" className="scroll-mt-20">
      <CardHeader
        title={<span id="settings-heading">Settings</span>}
        description="How this project handles what customers send, and whom it may message first."
      />
      <CardBody className="space-y-6">
        {!canWrite && <p className="text-xs text-slate-500">Your role can see these settings; a developer or admin can change them.</p>}
        <fieldset disabled={!canWrite}>
          <legend className="text-[13px] font-medium text-slate-800">Inbound routing</legend>
          <div className="mt-2 grid gap-2 md:grid-cols-3">
            {ROUTING_MODES.map((mode) => {
              const selected = routingMode === mode;
              return (
                <label
                  key={mode}
                  className={cn(
                    "flex cursor-pointer items-start gap-3 rounded-md px-3 py-2.5 ring-1 transition-colors ring-inset has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-600",
                    selected ? "bg-indigo-50/60 ring-indigo-300" : "ring-slate-200 hover:bg-slate-50",
                    !canWrite && "cursor-not-allowed opacity-70",
                  )}
                >
                  <input
                    type="radio"
                    name="routing_mode"
                    value={mode}
                    checked={selected}
                    onChange={() => chooseRouting(mode)}
                    className="mt-0.5 size-4 accent-indigo-600 focus-visible:outline-none"
                  />
                  <span className="text-sm leading-5">
                    <span className="font-medium text-slate-900">{MODE_NAMES[mode]}</span>
                    <span className="block text-slate-600" data-testid="routing-sentence">
                      {ROUTING_SENTENCES[mode]}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
          <p className="mt-2 text-[13px] text-slate-600" data-testid="routing-rule">
            {ROUTING_RULE} {ROUTING_EVENTS_NOTE}
          </p>
        </fieldset>
        <Switch
          className="max-w-2xl"
          label="Require opt-in"
          description="Messages you start (to a phone number or contact) need the contact's active opt-in, else they're refused. Replies in a conversation only follow the 24-hour window."
          checked={project.require_opt_in}
          disabled={!canWrite}
          onCheckedChange={(checked) => void save({ require_opt_in: checked }, checked ? "Opt-in is now required" : "Opt-in is no longer required")}
        />
      </CardBody>
    </Card>
  );
}
