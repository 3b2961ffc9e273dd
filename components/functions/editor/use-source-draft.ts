"use client";

import { useState } from "react";
import type { HostedFunction } from "@/lib/client/functions";
import type { FunctionRuntimeName } from "@/lib/shared/functions";
import { starterSource } from "../model/starters";

export interface SourceDraft {
  text: string;
  setText: (text: string) => void;
  /** The text differs from the deployed source (or, before the first deploy, from the chosen starter). */
  dirty: boolean;
  /** Before the first deploy: the runtime of the starter in the editor. */
  starterRuntime: FunctionRuntimeName;
  chooseStarter: (runtime: FunctionRuntimeName) => void;
}

/**
 * The editor's working text. It starts as the deployed source, or a starter for the function's
 * trigger when nothing is deployed; when the active version changes (a deploy, a rollback) it follows
 * unless the operator has edits of their own, which are never overwritten.
 */
export function useSourceDraft(fn: HostedFunction): SourceDraft {
  const deployed = fn.source ?? null;
  const [starterRuntime, setStarterRuntime] = useState<FunctionRuntimeName>("PLAIN");
  const baselineOf = (source: string | null) => source ?? starterSource(fn.trigger_type, starterRuntime);
  const [text, setText] = useState(() => baselineOf(deployed));
  const [followed, setFollowed] = useState(deployed);

  // Adjusting state while rendering (React's pattern for "state that follows a prop") avoids a frame with the old text.
  if (deployed !== followed) {
    setFollowed(deployed);
    if (text === baselineOf(followed)) setText(baselineOf(deployed));
  }

  return {
    text,
    setText,
    dirty: text !== baselineOf(deployed),
    starterRuntime,
    chooseStarter: (runtime) => {
      setStarterRuntime(runtime);
      setText(starterSource(fn.trigger_type, runtime));
    },
  };
}
