"use client";

import { useState } from "react";
import type { FunctionDraft, HostedFunction } from "@/lib/client/functions";
import type { FunctionRuntimeName } from "@/lib/shared/functions";
import { starterSource } from "../model/starters";

export interface SourceDraft {
  text: string;
  setText: (text: string) => void;
  /** The deployed source (null before the first deploy). */
  live: string | null;
  /** The draft saved on the server (null when none). */
  saved: string | null;
  /** What the editor opens with and returns to: the saved draft, else the live source, else the starter. */
  baseline: string;
  /** The text differs from the baseline: Save has something to keep. */
  unsaved: boolean;
  /** The text differs from what runs: Deploy has something to change. */
  undeployed: boolean;
  /** Before the first deploy: the runtime of the starter in the editor. */
  starterRuntime: FunctionRuntimeName;
  chooseStarter: (runtime: FunctionRuntimeName) => void;
}

/**
 * The editor's working text. It opens on the saved draft when there is one (so a reload shows it),
 * else the deployed source, else a starter for the function's trigger. When that baseline moves (a
 * save, a deploy, a rollback, a discarded draft) the text follows, unless the operator has edits of
 * their own, which are never overwritten.
 */
export function useSourceDraft(fn: HostedFunction, draft: FunctionDraft): SourceDraft {
  const live = fn.source ?? null;
  const saved = draft.source;
  const [starterRuntime, setStarterRuntime] = useState<FunctionRuntimeName>("PLAIN");
  const baselineOf = (savedSource: string | null, liveSource: string | null) => savedSource ?? liveSource ?? starterSource(fn.trigger_type, starterRuntime);
  const baseline = baselineOf(saved, live);
  const [text, setText] = useState(baseline);
  const [followed, setFollowed] = useState(baseline);

  // Adjusting state while rendering (React's pattern for "state that follows a prop") avoids a frame with the old text.
  if (baseline !== followed) {
    setFollowed(baseline);
    if (text === followed) setText(baseline);
  }

  return {
    text,
    setText,
    live,
    saved,
    baseline,
    unsaved: text !== baseline,
    undeployed: text !== (live ?? ""),
    starterRuntime,
    chooseStarter: (runtime) => {
      setStarterRuntime(runtime);
      setText(starterSource(fn.trigger_type, runtime));
    },
  };
}
