import type { Draft, DraftField, DraftScreen } from "./types";

/** One screen of a draft in navigation order, with the fields filled in before it. */
export interface OrderedScreen {
  screen: DraftScreen;
  /** Its index in draft.screens (for pointers into the draft). */
  index: number;
  /** Fields of the screens before it on its path from the entry screen, in the order they were filled. */
  carried: DraftField[];
}

/**
 * The draft's screens in navigation order: the path from entryScreenId following `next`, then any screen
 * not on it (in draft order, each starting a path of its own). Each screen has one `next`, so the path
 * from the entry screen is a single line and "every value so far" is the fields of the screens before it
 * on that line. A loop or an unknown `next` ends a path; validateDraft reports both.
 */
export function orderScreens(draft: Draft): OrderedScreen[] {
  const byId = new Map<string, number>();
  draft.screens.forEach((screen, index) => {
    if (!byId.has(screen.id)) byId.set(screen.id, index);
  });
  const visited = new Set<number>();
  const ordered: OrderedScreen[] = [];
  const walk = (start: number | undefined) => {
    let carried: DraftField[] = [];
    let index = start;
    while (index !== undefined && !visited.has(index)) {
      visited.add(index);
      const screen = draft.screens[index]!;
      ordered.push({ screen, index, carried });
      carried = [...carried, ...screen.fields];
      index = screen.next === undefined ? undefined : byId.get(screen.next);
    }
  };
  walk(byId.get(draft.entryScreenId));
  draft.screens.forEach((_screen, index) => walk(index));
  return ordered;
}
