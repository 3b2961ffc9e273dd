import type { PlacedFindings } from "../model/findings";
import type { WorkingDraft } from "../model/working-draft";

/** What every builder part gets: a way to change the working draft, and the findings placed on it. */
export interface BuilderProps {
  change: (edit: (draft: WorkingDraft) => WorkingDraft) => void;
  placed: PlacedFindings;
  readOnly: boolean;
}

/** aria-invalid for the input of `prop` on an element that a finding names by that key. */
export function invalidProp(placed: PlacedFindings, elementKey: string, prop: string): true | undefined {
  return placed.props.get(elementKey)?.has(prop) ? true : undefined;
}
