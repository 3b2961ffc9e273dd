"use client";

import { useMemo, useState } from "react";
import { isApiError } from "@/lib/client/api";
import { useUpdateFlow, type Flow } from "@/lib/client/flows";
import { builderElementId, mergePlaced, placeFindings, requestFindings, toFindings, type Finding, type PlacedFindings } from "../model/findings";
import { fromDraft, shapeOf, toDraft, type SavedShape, type WorkingDraft } from "../model/working-draft";

type EditorMode = "draft" | "json";

const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

/** The JSON text typed, parsed for a save or a preview; the message says why not when it cannot be. */
export function parseFlowJson(text: string): { value: Record<string, unknown> } | { error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) return { error: 'Flow JSON must be an object: {"version": ..., "screens": [...]}.' };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: `The Flow JSON is not valid JSON (${error instanceof Error ? error.message : "parse error"}). Fix it, then save.` };
  }
}

/**
 * The editor's working copy and its save. A flow built from a draft is edited in the builder (the
 * Flow JSON tab shows what the last save compiled); a flow given as Flow JSON is edited as text. The
 * working copy starts from the flow as loaded and is never overwritten by refetches (they only bring
 * new statuses and findings); `dirty` compares it with what was last saved.
 */
export function useFlowEditor(projectId: string, flow: Flow) {
  const mode: EditorMode = flow.draft ? "draft" : "json";
  const [working, setWorking] = useState<WorkingDraft | null>(() => (flow.draft ? fromDraft(flow.draft) : null));
  const [jsonText, setJsonText] = useState(() => pretty(flow.flow_json));
  const [baseline, setBaseline] = useState(() => (working ? JSON.stringify(toDraft(working)) : jsonText));
  const [savedShape, setSavedShape] = useState<SavedShape>(() => (working ? shapeOf(working) : { screens: [] }));
  const [refused, setRefused] = useState<{ findings: Finding[]; shape: SavedShape }>({ findings: [], shape: { screens: [] } });
  const [localError, setLocalError] = useState<string | null>(null);
  const update = useUpdateFlow(projectId, flow.id);

  const current = working ? JSON.stringify(toDraft(working)) : jsonText;
  const dirty = current !== baseline;

  const saved = useMemo(() => toFindings(flow.validation_errors), [flow.validation_errors]);
  const findings = useMemo(() => [...refused.findings, ...saved], [refused.findings, saved]);
  const placed: PlacedFindings = useMemo(
    () => mergePlaced(placeFindings(saved, savedShape), placeFindings(refused.findings, refused.shape)),
    [saved, savedShape, refused],
  );

  const save = () => {
    if (!dirty || update.isPending) return;
    const shape = working ? shapeOf(working) : { screens: [] };
    let body: { draft: ReturnType<typeof toDraft> } | { flow_json: Record<string, unknown> };
    if (working) body = { draft: toDraft(working) };
    else {
      const parsed = parseFlowJson(jsonText);
      if ("error" in parsed) return setLocalError(parsed.error);
      body = { flow_json: parsed.value };
    }
    setLocalError(null);
    update.mutate(body, {
      onSuccess: () => {
        setBaseline(current);
        setSavedShape(shape);
        setRefused({ findings: [], shape });
      },
      onError: (error) => {
        const issues = isApiError(error) && error.code === "invalid_request" ? error.issues : undefined;
        setRefused({ findings: requestFindings(issues, working ? "draft" : "flow_json"), shape });
      },
    });
  };

  return {
    mode,
    working,
    setWorking: (change: (draft: WorkingDraft) => WorkingDraft) => setWorking((draft) => (draft ? change(draft) : draft)),
    jsonText,
    setJsonText,
    /** The compiled Flow JSON of the last save, as the read-only tab shows it. */
    savedJsonText: pretty(flow.flow_json),
    dirty,
    save,
    saving: update.isPending,
    saveError: localError ?? (update.error && !refused.findings.length ? update.error.message : null),
    findings,
    placed,
    /** The builder element a finding points at, through the shape of the save it came from. */
    locate: (finding: Finding) => builderElementId(finding, finding.source === "request" ? refused.shape : savedShape),
  };
}

export type FlowEditorState = ReturnType<typeof useFlowEditor>;
