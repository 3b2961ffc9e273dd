"use client";

import { useEffect, useState } from "react";
import { Button, Field, PlusIcon, Select } from "@/components/ui";
import { addScreen, setEntry } from "../model/draft-ops";
import { newUid, type WorkingDraft } from "../model/working-draft";
import type { BuilderProps } from "./builder-context";
import { FindingList } from "./finding-list";
import { ScreenCard } from "./screen-card";

export interface BuilderViewProps extends BuilderProps {
  draft: WorkingDraft;
  selectedUid: string | null;
  onSelect: (uid: string) => void;
}

/** The visual builder: the entry screen, then every screen with its fields, in the order customers meet them. */
export function Builder({ draft, selectedUid, onSelect, ...builder }: BuilderViewProps) {
  const { change, placed, readOnly } = builder;
  // Focus (and scroll to) what was just added once it is on the page.
  const [focusId, setFocusId] = useState<string | null>(null);
  useEffect(() => {
    if (!focusId) return;
    const element = document.getElementById(focusId);
    element?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    element?.focus({ preventScroll: true });
    setFocusId(null);
  }, [focusId]);

  const entryUid = draft.entry?.kind === "screen" ? draft.entry.uid : "";
  return (
    <div className="space-y-4">
      <Field label="Entry screen" hint="Where the flow opens." className="max-w-xs" id="flow-entry-screen">
        <Select
          value={entryUid}
          disabled={readOnly}
          aria-invalid={placed.entry.length ? true : undefined}
          onChange={(e) => change((d) => setEntry(d, e.target.value))}
        >
          {!entryUid && <option value="">{draft.entry?.kind === "missing" ? `${draft.entry.id} (no such screen)` : "Pick a screen"}</option>}
          {draft.screens.map((screen) => (
            <option key={screen.uid} value={screen.uid}>
              {screen.id || "(no id)"}
            </option>
          ))}
        </Select>
      </Field>
      <FindingList findings={placed.entry} label="Problems with the entry screen" />
      <ol className="space-y-4">
        {draft.screens.map((screen, index) => (
          <li key={screen.uid}>
            <ScreenCard
              {...builder}
              draft={draft}
              screen={screen}
              index={index}
              selected={screen.uid === selectedUid}
              onSelect={() => onSelect(screen.uid)}
              onAdded={(uid) => setFocusId(`flow-field-${uid}`)}
            />
          </li>
        ))}
      </ol>
      {!readOnly && (
        <Button
          icon={<PlusIcon />}
          onClick={() => {
            const uid = newUid("s");
            change((d) => addScreen(d, uid).draft);
            onSelect(uid);
            setFocusId(`flow-screen-${uid}`);
          }}
        >
          Add screen
        </Button>
      )}
    </div>
  );
}
