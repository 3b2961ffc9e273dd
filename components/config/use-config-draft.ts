"use client";

import { useState } from "react";
import { useConfigApply, useConfigDiff } from "@/lib/client/config";
import { detectFormat, parseDocument, serializeDocument, type DocumentFormat } from "./model/document";

/**
 * The document the operator means to apply: its text (uploaded or typed), the diff read for exactly
 * that text, and the apply. Apply sends the text that was previewed, never a later edit: an edit
 * marks the preview stale until it is read again.
 */
export function useConfigDraft(projectId: string) {
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | undefined>();
  const [format, setFormat] = useState<DocumentFormat>("yaml");
  const [parseError, setParseError] = useState<string | null>(null);
  const [previewedText, setPreviewedText] = useState<string | null>(null);
  const diff = useConfigDiff(projectId);
  const apply = useConfigApply(projectId);

  const preview = (source: string = text, name: string | undefined = fileName) => {
    apply.reset();
    const parsed = parseDocument(source, name);
    if (!parsed.ok) {
      diff.reset();
      setPreviewedText(null);
      setParseError(parsed.message);
      return;
    }
    setParseError(null);
    setPreviewedText(source);
    diff.mutate(parsed.value);
  };

  /** A file (or the export) becomes the draft and is previewed at once. */
  const load = (source: string, name?: string, as?: DocumentFormat) => {
    setText(source);
    setFileName(name);
    setFormat(as ?? detectFormat(source, name));
    preview(source, name);
  };

  /** YAML ⇄ JSON: the draft is converted when it parses, else only the highlighting changes. */
  const changeFormat = (next: DocumentFormat) => {
    const parsed = text.trim() ? parseDocument(text, fileName) : null;
    setFormat(next);
    if (!parsed?.ok) return;
    const converted = serializeDocument(parsed.value, next);
    // The same document in another notation: a preview of it still holds.
    if (previewedText === text) setPreviewedText(converted);
    setText(converted);
    setFileName(undefined);
  };

  const applyPreviewed = () => {
    if (previewedText === null) return;
    const parsed = parseDocument(previewedText, fileName);
    if (parsed.ok) apply.mutate(parsed.value);
  };

  const clear = () => {
    setText("");
    setFileName(undefined);
    setParseError(null);
    setPreviewedText(null);
    diff.reset();
    apply.reset();
  };

  return {
    text,
    edit: setText,
    fileName,
    format,
    changeFormat,
    parseError,
    /** The text changed since its diff was read. */
    stale: previewedText !== null && previewedText !== text,
    previewed: previewedText !== null,
    diff,
    apply,
    preview: () => preview(),
    load,
    applyPreviewed,
    clear,
  };
}

export type ConfigDraft = ReturnType<typeof useConfigDraft>;
