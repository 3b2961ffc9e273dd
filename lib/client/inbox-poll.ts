/**
 * Which projects' inboxes useInboxLive follows in this tab (it marks them while mounted). It refreshes
 * their queries itself: on each live event while the stream is open, by one 5 s refetch of every inbox
 * query while it is not. So those queries keep no poll of their own (issue 37: polling only as the
 * fallback, and then once). A page that shows inbox data without it (the sandbox phone) keeps polling.
 */
const followers = new Map<string, number>();

export function markInboxFollowed(projectId: string, followed: boolean): void {
  const count = (followers.get(projectId) ?? 0) + (followed ? 1 : -1);
  if (count > 0) followers.set(projectId, count);
  else followers.delete(projectId);
}

/** A query's refetchInterval: `ms` while nothing follows the project's inbox, none while useInboxLive does. */
export function pollUnlessFollowed(projectId: string, ms: number): () => number | false {
  return () => (followers.has(projectId) ? false : ms);
}
