"use client";

import { useState } from "react";

/**
 * Previous / Next over a starting_after list: the cursors of the pages already seen, so Previous
 * goes back without the API having an ending_before. `reset` when the filter changes.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    page: cursors.length + 1,
    hasPrevious: cursors.length > 0,
    next: (lastId: string | undefined) => lastId && setCursors((seen) => [...seen, lastId]),
    previous: () => setCursors((seen) => seen.slice(0, -1)),
    reset: () => setCursors([]),
  };
}
