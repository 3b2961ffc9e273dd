"use client";

import { useRef, useState } from "react";
import { newIdempotencyKey } from "@/components/inbox/pending-send";
import { addBroadcastRecipients, RECIPIENTS_PER_CALL, useRefreshBroadcast } from "@/lib/client/broadcasts";
import { chunksOf, errorsOnLines, type LineError, type SourcedRecipient } from "./model/recipients-csv";

export interface UploadState {
  phase: "idle" | "uploading" | "done" | "failed";
  /** Recipients whose chunk the server answered. */
  uploaded: number;
  total: number;
  added: number;
  duplicates: number;
  /** The server's per-row refusals, on the operator's lines. */
  errors: LineError[];
  /** Why the upload stopped (phase "failed"): the chunk that failed is sent again by `retry`. */
  error: unknown;
}

const IDLE: UploadState = { phase: "idle", uploaded: 0, total: 0, added: 0, duplicates: 0, errors: [], error: null };

/**
 * Sends recipients in chunks of RECIPIENTS_PER_CALL, one after the other. Each chunk's
 * Idempotency-Key is the batch's key plus the chunk's number: a retry after a failure starts again
 * at the failed chunk with the same key, so a chunk whose answer was lost is not added twice.
 */
export function useRecipientUpload(projectId: string, broadcastId: string) {
  const refresh = useRefreshBroadcast(projectId, broadcastId);
  const [state, setState] = useState<UploadState>(IDLE);
  const batch = useRef<{ key: string; chunks: SourcedRecipient[][]; next: number } | null>(null);

  async function run(): Promise<void> {
    const current = batch.current;
    if (!current) return;
    setState((s) => ({ ...s, phase: "uploading", error: null }));
    while (current.next < current.chunks.length) {
      const chunk = current.chunks[current.next]!;
      try {
        const answer = await addBroadcastRecipients(
          projectId,
          broadcastId,
          chunk.map((item) => item.recipient),
          `${current.key}.${current.next}`,
        );
        current.next += 1;
        setState((s) => ({
          ...s,
          uploaded: s.uploaded + chunk.length,
          added: s.added + answer.added,
          duplicates: s.duplicates + answer.duplicates,
          errors: [...s.errors, ...errorsOnLines(chunk, answer.errors)],
        }));
      } catch (error) {
        setState((s) => ({ ...s, phase: "failed", error }));
        refresh();
        return;
      }
    }
    setState((s) => ({ ...s, phase: "done" }));
    refresh();
  }

  return {
    state,
    start(recipients: SourcedRecipient[]) {
      batch.current = { key: newIdempotencyKey(), chunks: chunksOf(recipients, RECIPIENTS_PER_CALL), next: 0 };
      setState({ ...IDLE, total: recipients.length });
      void run();
    },
    retry: () => void run(),
    reset() {
      batch.current = null;
      setState(IDLE);
    },
  };
}
