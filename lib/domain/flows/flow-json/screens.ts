import { componentsOf, isRecord, screensOf } from "./flow-json-read";
import type { FlowJson } from "./types";

const OPTION_COMPONENTS: ReadonlySet<string> = new Set(["Dropdown", "RadioButtonsGroup", "CheckboxGroup", "ChipsSelector"]);

/** The ids of a Flow JSON's screens, in order (what a send's `screen` may name). */
export function screenIdsOf(json: FlowJson): string[] {
  return screensOf(json).flatMap((screen) => (screen.id === null ? [] : [screen.id]));
}

/**
 * The option ids of the selection input named `fieldName` (the first one, in screen order). Null when there
 * is no such input or its options are bound to data (`${data.x}`: the endpoint or the sender supplies them).
 */
export function optionIdsOf(json: FlowJson, fieldName: string): string[] | null {
  for (const screen of screensOf(json)) {
    const input = componentsOf(screen).find((c) => OPTION_COMPONENTS.has(c.type) && c.component.name === fieldName);
    if (!input) continue;
    const source = input.component["data-source"];
    if (!Array.isArray(source)) return null;
    return source.flatMap((option) => (isRecord(option) && typeof option.id === "string" ? [option.id] : []));
  }
  return null;
}
