"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { validateConfig } from "@/lib/client/automations-write";
import type { AutomationStep, AutomationTrigger, StepKind } from "@/lib/client/automations";
import { useConfigExport } from "@/lib/client/config";
import { projectQueryKey } from "@/lib/client/query";
import { documentWithChange } from "../model/document-change";
import { blankStep, entryOf, moveItem, newUid, type AutomationDraft } from "../model/draft";
import { fieldPaths, placeIssues, type Issue, type PlacedIssues } from "../model/issue-fields";

// Long enough that typing a word asks once, short enough that the field says what is wrong before Save.
const VALIDATE_AFTER_MS = 600;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The builder's state: the draft, its edits, and its issues in place. While the operator edits, the
 * exported config document with this automation changed goes to `POST /config/validate` (the same
 * checks an apply and the write endpoints make), and each issue is placed at its field. A refused
 * save's 422 issues (relative paths) show the same way until the next edit.
 */
export function useBuilder(projectId: string, initial: AutomationDraft, originalKey: string | null) {
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(() => JSON.stringify(entryOf(initial)));
  const [refused, setRefused] = useState<{ issues: Issue[]; forEntry: string } | null>(null);
  const exported = useConfigExport(projectId);

  const entry = useMemo(() => entryOf(draft), [draft]);
  const entryJson = JSON.stringify(entry);
  const settledJson = useDebounced(entryJson, VALIDATE_AFTER_MS);
  const change = useMemo(
    () => (exported.data ? documentWithChange(exported.data, { kind: "upsert", entry: JSON.parse(settledJson), originalKey }) : null),
    [exported.data, settledJson, originalKey],
  );

  const validation = useQuery({
    queryKey: projectQueryKey(projectId, "automation-builder", "validate", originalKey ?? "", settledJson, exported.dataUpdatedAt),
    queryFn: ({ signal }) => validateConfig(projectId, change!.document, signal),
    enabled: change !== null,
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });

  const known = useMemo(() => fieldPaths(draft), [draft]);
  const placed: PlacedIssues = useMemo(() => {
    const fromValidate = validation.data ? placeIssues(validation.data.issues, known, change?.index ?? null) : placeIssues([], known);
    // A refused save speaks for the entry it was about; the next edit hands over to validate again.
    if (!refused || refused.forEntry !== entryJson) return fromValidate;
    const fromSave = placeIssues(refused.issues, known);
    for (const [field, issues] of fromSave.byField) fromValidate.byField.set(field, [...(fromValidate.byField.get(field) ?? []), ...issues]);
    return { ...fromValidate, general: [...fromValidate.general, ...fromSave.general] };
  }, [validation.data, known, change?.index, refused, entryJson]);

  const update = (patch: Partial<AutomationDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setTrigger = (trigger: AutomationTrigger) => update({ trigger });
  const setStep = (index: number, step: AutomationStep) =>
    setDraft((current) => ({ ...current, steps: current.steps.map((item, i) => (i === index ? { ...item, step } : item)) }));
  const addStep = (kind: StepKind, at?: number) =>
    setDraft((current) => {
      const steps = [...current.steps];
      steps.splice(at ?? steps.length, 0, { uid: newUid(), step: blankStep(kind) });
      return { ...current, steps };
    });
  const removeStep = (index: number) => setDraft((current) => ({ ...current, steps: current.steps.filter((_, i) => i !== index) }));
  const moveStep = (index: number, to: number) => setDraft((current) => ({ ...current, steps: moveItem(current.steps, index, to) }));

  return {
    draft,
    entry,
    update,
    setTrigger,
    setStep,
    addStep,
    removeStep,
    moveStep,
    placed,
    /** Field path → its first error or warning message, for a Field's `error`. */
    errorAt: (field: string) => placed.byField.get(field)?.[0]?.message,
    /** The draft as last checked is what is shown (no edit since). */
    checked: validation.isSuccess && settledJson === entryJson && !validation.isFetching,
    checking: validation.isFetching || settledJson !== entryJson,
    validationError: validation.error,
    exported,
    dirty: entryJson !== saved,
    /** After a save: the saved entry is the new baseline. */
    markSaved: () => setSaved(entryJson),
    /** The stored automation changed (a save, a config apply): the form starts again from it. */
    reset: (next: AutomationDraft) => {
      setDraft(next);
      setSaved(JSON.stringify(entryOf(next)));
      setRefused(null);
    },
    /** A save's 422: its issues, for exactly this entry. */
    refuse: (issues: Issue[]) => setRefused({ issues, forEntry: entryJson }),
  };
}

export type Builder = ReturnType<typeof useBuilder>;
