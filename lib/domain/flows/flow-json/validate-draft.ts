import { blankText, finding, textTooLong } from "./finding";
import { MAX_BODY, MAX_COMPONENTS_PER_SCREEN, MAX_FOOTER_LABEL, MAX_SCREENS, MAX_SCREEN_TITLE, SCREEN_ID_PATTERN, isReservedScreenId } from "./limits";
import { pointer } from "./pointer";
import type { Draft, DraftScreen, FlowFinding } from "./types";
import { fieldFindings } from "./validate-draft-fields";

/**
 * Our findings on a draft (docs/spec/decisions.md "Flows"): each names the thing, points into the draft
 * (RFC 6901) and says what to do. The wire schema only checks the draft's shape; these are the rules the
 * provider would refuse at publish time, so a work-in-progress draft is saved with what to fix.
 */
export function validateDraft(draft: Draft): FlowFinding[] {
  const found: FlowFinding[] = [];
  if (draft.screens.length > MAX_SCREENS) {
    found.push(
      finding("TOO_MANY_SCREENS", "/screens", `The flow has ${draft.screens.length} screens; the limit is ${MAX_SCREENS}.`, "Merge or remove screens."),
    );
  }
  draft.screens.forEach((screen, index) => found.push(...screenFindings(screen, index)));
  found.push(...duplicateFindings(draft), ...navigationFindings(draft));
  return found;
}

function screenFindings(screen: DraftScreen, index: number): FlowFinding[] {
  const found: Array<FlowFinding | null> = [screenIdFinding(screen.id, pointer("screens", index, "id"))];
  const name = `Screen '${screen.id}'`;
  found.push(blankText(pointer("screens", index, "title"), `The title of ${name}`, screen.title));
  found.push(textTooLong(pointer("screens", index, "title"), `The title of ${name}`, screen.title, MAX_SCREEN_TITLE));
  if (screen.body !== undefined) found.push(textTooLong(pointer("screens", index, "body"), `The body of ${name}`, screen.body, MAX_BODY));
  if (screen.submit_label !== undefined) {
    const label = `The submit label of ${name}`;
    found.push(blankText(pointer("screens", index, "submit_label"), label, screen.submit_label));
    found.push(textTooLong(pointer("screens", index, "submit_label"), label, screen.submit_label, MAX_FOOTER_LABEL));
  }
  // The compiled screen holds the fields, the body (when given) and the Footer.
  const components = screen.fields.length + (screen.body?.trim() ? 1 : 0) + 1;
  if (components > MAX_COMPONENTS_PER_SCREEN) {
    found.push(
      finding(
        "TOO_MANY_COMPONENTS",
        pointer("screens", index, "fields"),
        `${name} compiles to ${components} components (its fields, body and button); a screen holds at most ${MAX_COMPONENTS_PER_SCREEN}.`,
        "Move some fields to another screen.",
      ),
    );
  }
  const fields = screen.fields.flatMap((field, fieldIndex) => fieldFindings(field, pointer("screens", index, "fields", fieldIndex)));
  return [...found.filter((f): f is FlowFinding => f !== null), ...fields];
}

/** Screen ids: letters and underscores, and never the provider's own SUCCESS screen (any case). */
export function screenIdFinding(id: string, path: string): FlowFinding | null {
  if (isReservedScreenId(id)) {
    return finding("INVALID_SCREEN_ID", path, `Screen id '${id}' is reserved by the provider.`, "Rename the screen, for example DONE or THANK_YOU.");
  }
  if (SCREEN_ID_PATTERN.test(id)) return null;
  return finding("INVALID_SCREEN_ID", path, `Screen id '${id}' must use letters and underscores only.`, "Rename the screen, for example CONTACT_DETAILS.");
}

/** Screen ids are unique; field names are unique across the whole flow (they are the submission's keys). */
function duplicateFindings(draft: Draft): FlowFinding[] {
  const found: FlowFinding[] = [];
  const screens = new Set<string>();
  const fields = new Map<string, string>();
  draft.screens.forEach((screen, index) => {
    if (screens.has(screen.id)) {
      found.push(
        finding(
          "DUPLICATE_SCREEN",
          pointer("screens", index, "id"),
          `Screen id '${screen.id}' is used by more than one screen.`,
          "Give each screen its own id.",
        ),
      );
    }
    screens.add(screen.id);
    screen.fields.forEach((field, fieldIndex) => {
      const first = fields.get(field.name);
      if (first !== undefined) {
        found.push(
          finding(
            "DUPLICATE_FIELD",
            pointer("screens", index, "fields", fieldIndex, "name"),
            `Field name '${field.name}' is already used on screen '${first}'; names are unique across the flow.`,
            "Rename one of the fields.",
          ),
        );
      } else fields.set(field.name, screen.id);
    });
  });
  return found;
}

function navigationFindings(draft: Draft): FlowFinding[] {
  const ids = new Map<string, number>();
  draft.screens.forEach((screen, index) => ids.set(screen.id, ids.get(screen.id) ?? index));
  const found: FlowFinding[] = [];
  const entry = ids.get(draft.entryScreenId);
  if (entry === undefined) {
    found.push(
      finding(
        "UNKNOWN_SCREEN",
        "/entryScreenId",
        `entryScreenId '${draft.entryScreenId}' names no screen of the flow.`,
        "Set entryScreenId to the id of the first screen.",
      ),
    );
  }
  draft.screens.forEach((screen, index) => {
    if (screen.next !== undefined && !ids.has(screen.next)) {
      found.push(
        finding(
          "UNKNOWN_SCREEN",
          pointer("screens", index, "next"),
          `Screen '${screen.id}' goes next to '${screen.next}', which is not a screen of the flow.`,
          "Set next to an existing screen id, or remove it to make this the last screen.",
        ),
      );
    }
  });
  if (!draft.screens.some((screen) => screen.next === undefined)) {
    found.push(finding("NO_TERMINAL_SCREEN", "/screens", "Every screen has a next screen, so the flow never completes.", "Remove next from the last screen."));
  }
  found.push(...loopFindings(draft, ids));
  if (entry !== undefined) found.push(...unreachableFindings(draft, ids, entry));
  return found;
}

/** Each screen has at most one next, so a loop is a walk that comes back to a screen still on it. */
function loopFindings(draft: Draft, ids: Map<string, number>): FlowFinding[] {
  const found: FlowFinding[] = [];
  const done = new Set<number>();
  draft.screens.forEach((_screen, start) => {
    const onWalk = new Set<number>();
    let index: number | undefined = start;
    while (index !== undefined && !done.has(index)) {
      onWalk.add(index);
      const screen: DraftScreen = draft.screens[index]!;
      const next = screen.next === undefined ? undefined : ids.get(screen.next);
      if (next !== undefined && onWalk.has(next)) {
        found.push(
          finding(
            "NAVIGATION_LOOP",
            pointer("screens", index, "next"),
            `Screen '${screen.id}' goes back to '${screen.next}', making a loop; navigation only moves forward.`,
            "Point next at a later screen, or remove it to end the flow here.",
          ),
        );
        break;
      }
      index = next;
    }
    onWalk.forEach((i) => done.add(i));
  });
  return found;
}

function unreachableFindings(draft: Draft, ids: Map<string, number>, entry: number): FlowFinding[] {
  const reached = new Set<number>();
  let index: number | undefined = entry;
  while (index !== undefined && !reached.has(index)) {
    reached.add(index);
    const next: string | undefined = draft.screens[index]!.next;
    index = next === undefined ? undefined : ids.get(next);
  }
  return draft.screens.flatMap((screen, i) =>
    reached.has(i) || ids.get(screen.id) !== i
      ? []
      : [
          finding(
            "UNREACHABLE_SCREEN",
            pointer("screens", i),
            `Screen '${screen.id}' cannot be reached from the entry screen '${draft.entryScreenId}'.`,
            "Point the next of an earlier screen at it, or remove it.",
          ),
        ],
  );
}
