/**
 * Which projects' inbox streams are open in this tab (useInboxLive marks them). The inbox's queries
 * poll only while theirs is not: live events refresh them otherwise (issue 37: polling only as the
 * fallback). A page that shows inbox data without the stream (the sandbox phone) keeps polling.
 */
const openStreams = new Map<string, number>();

export function markInboxStream(projectId: string, open: boolean): void {
  const count = (openStreams.get(projectId) ?? 0) + (open ? 1 : -1);
  if (count > 0) openStreams.set(projectId, count);
  else openStreams.delete(projectId);
}

/** A query's refetchInterval: `ms` while the project's stream is closed, none while it is open. */
export function pollUnlessLive(projectId: string, ms: number): () => number | false {
  return () => (openStreams.has(projectId) ? false : ms);
}
