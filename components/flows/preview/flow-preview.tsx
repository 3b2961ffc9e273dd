"use client";

import { useState } from "react";
import { FlowScreenView, type FlowAction } from "@/components/flow-render/flow-screen-view";
import { screensOf } from "@/components/flow-render/flow-json-read";
import { PhoneFrame } from "@/components/flow-render/phone-frame";
import { Button, Card, CardBody, CardHeader, Select, Switch } from "@/components/ui";
import type { WorkingDraft } from "../model/working-draft";
import { DraftScreenPreview } from "./draft-screen-preview";
import { advance, startTrial, stepBack, type Trial } from "./trial";
import { TrialResult } from "./trial-result";

export interface FlowPreviewProps {
  /** The Flow JSON to draw: the last save's compiled flow (draft flows), or the text being edited (Flow JSON flows). */
  flowJson: Record<string, unknown> | null;
  /** Set while a draft has unsaved edits: the preview draws them from the builder instead. */
  unsavedDraft: WorkingDraft | null;
  screenId: string | null;
  onScreenChange: (screenId: string) => void;
  /** Why the preview shows what it shows (e.g. "unsaved changes"). */
  note?: string;
}

/** The phone-style preview beside the editor: one screen at a time, or "Try it" to walk the saved flow from its first screen as a customer would. */
export function FlowPreview({ flowJson, unsavedDraft, screenId, onScreenChange, note }: FlowPreviewProps) {
  const [trial, setTrial] = useState<Trial | null>(null);
  const ids = unsavedDraft ? unsavedDraft.screens.map((screen) => screen.id) : screensOf(flowJson).map((screen) => String(screen.id));
  const current = screenId !== null && ids.includes(screenId) ? screenId : (ids[0] ?? null);
  const canTry = !unsavedDraft && flowJson !== null && current !== null;
  const trying = canTry && trial !== null;

  const start = () => flowJson && setTrial(startTrial(flowJson));
  const onAction = (action: FlowAction) => setTrial((state) => state && advance(state, action));

  let screen;
  if (unsavedDraft) {
    const draftScreen = unsavedDraft.screens.find((s) => s.id === current) ?? unsavedDraft.screens[0];
    screen = draftScreen ? <DraftScreenPreview screen={draftScreen} /> : null;
  } else if (trying && trial.at === "end") {
    screen = <TrialResult kind={trial.kind} payload={trial.payload} onRestart={start} />;
  } else if (flowJson && current) {
    const shown = trying && trial.at === "screen" ? trial : { screenId: current, data: undefined };
    screen = <FlowScreenView flowJson={flowJson} screenId={shown.screenId} data={shown.data} interactive={trying} onAction={onAction} />;
  }

  return (
    <Card>
      <CardHeader
        title="Preview"
        description={note}
        actions={<Switch label="Try it" checked={trying} disabled={!canTry} onCheckedChange={(on) => (on ? start() : setTrial(null))} />}
      />
      <CardBody className="space-y-3">
        {!trying && ids.length > 0 && (
          <Select aria-label="Preview screen" value={current ?? ""} onChange={(e) => onScreenChange(e.target.value)}>
            {ids.map((id, index) => (
              <option key={`${id}-${index}`} value={id}>
                {id || "(no id)"}
              </option>
            ))}
          </Select>
        )}
        {trying && trial.at === "screen" && trial.back.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => setTrial(stepBack(trial))}>
            Back
          </Button>
        )}
        <PhoneFrame label="Flow preview">
          {screen ?? (
            <p className="flex h-full items-center justify-center px-6 text-center text-sm text-slate-500">
              Nothing to preview yet: save the flow once it has a screen.
            </p>
          )}
        </PhoneFrame>
      </CardBody>
    </Card>
  );
}
