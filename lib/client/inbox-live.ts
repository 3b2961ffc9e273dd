"use client";

/**
 * PLACEHOLDER until the inbox-live branch lands (it owns this file and replaces it whole): the live
 * stream hook the inbox page calls. Here it reports "polling", which is what the page does without
 * the stream (the list, thread and notes queries poll on their own).
 */
export type InboxLiveStatus = "connecting" | "live" | "polling";

export function useInboxLive(projectId: string): { status: InboxLiveStatus } {
  void projectId;
  return { status: "polling" };
}
