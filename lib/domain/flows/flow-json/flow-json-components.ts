import { blankText, finding, textTooLong } from "./finding";
import { INPUT_COMPONENTS, isDynamicText, isRecord, type ComponentAt } from "./flow-json-read";
import {
  MAX_BODY,
  MAX_CAPTION,
  MAX_COMPONENTS_PER_SCREEN,
  MAX_FOOTER_LABEL,
  MAX_HEADING,
  MAX_HELPER_TEXT,
  MAX_OPTION_TITLE,
  MAX_OPTIONS,
  MAX_SUBHEADING,
  MIN_OPTIONS,
  labelLimit,
} from "./limits";
import { child } from "./pointer";
import type { FlowFinding } from "./types";

/** The component types of the provider's Flow JSON reference. */
const KNOWN_COMPONENTS: ReadonlySet<string> = new Set([
  ...INPUT_COMPONENTS,
  "TextHeading",
  "TextSubheading",
  "TextBody",
  "TextCaption",
  "RichText",
  "Footer",
  "EmbeddedLink",
  "Image",
  "ImageCarousel",
  "If",
  "Switch",
  "NavigationList",
  "Form",
]);

const TEXT_LIMITS: Readonly<Record<string, number>> = {
  TextHeading: MAX_HEADING,
  TextSubheading: MAX_SUBHEADING,
  TextBody: MAX_BODY,
  TextCaption: MAX_CAPTION,
};
const LABEL_REQUIRED: ReadonlySet<string> = new Set(["TextInput", "TextArea", "DatePicker", "Dropdown", "OptIn", "Footer"]);
const LABEL_LIMITED: ReadonlySet<string> = new Set(["TextInput", "TextArea", "DatePicker", "Dropdown", "RadioButtonsGroup", "CheckboxGroup", "OptIn"]);

/** The component checks of one screen: known types, names, limits, options, one Footer, at most 50 components. */
export function componentFindings(components: ComponentAt[], childrenPath: string, screenId: string): FlowFinding[] {
  const found: FlowFinding[] = [];
  if (components.length > MAX_COMPONENTS_PER_SCREEN) {
    found.push(
      finding(
        "TOO_MANY_COMPONENTS",
        childrenPath,
        `Screen '${screenId}' has ${components.length} components; a screen holds at most ${MAX_COMPONENTS_PER_SCREEN}.`,
        "Move some components to another screen.",
      ),
    );
  }
  const footers = components.filter((c) => c.type === "Footer");
  for (const extra of footers.slice(1)) {
    found.push(finding("TOO_MANY_FOOTERS", extra.path, `Screen '${screenId}' has more than one Footer.`, "Keep one Footer per screen."));
  }
  const names = new Set<string>();
  for (const component of components) {
    found.push(...oneComponent(component));
    const name = component.component.name;
    if (!INPUT_COMPONENTS.has(component.type) || typeof name !== "string") continue;
    if (names.has(name)) {
      found.push(
        finding(
          "DUPLICATE_FIELD",
          child(component.path, "name"),
          `Screen '${screenId}' has more than one input named '${name}'.`,
          "Give each input its own name.",
        ),
      );
    }
    names.add(name);
  }
  return found;
}

function oneComponent(at: ComponentAt): FlowFinding[] {
  if (!KNOWN_COMPONENTS.has(at.type)) {
    return [
      finding(
        "UNKNOWN_COMPONENT",
        child(at.path, "type"),
        `'${at.type}' is not a Flow JSON component.`,
        "Use one of the provider's components, such as TextInput.",
      ),
    ];
  }
  const found: Array<FlowFinding | null> = [];
  const c = at.component;
  if (INPUT_COMPONENTS.has(at.type) && (typeof c.name !== "string" || c.name === "")) {
    found.push(
      finding("INVALID_FLOW_JSON", child(at.path, "name"), `A ${at.type} needs a name.`, "Give the component a name: the submission uses it as the key."),
    );
  }
  const textLimit = TEXT_LIMITS[at.type];
  if (textLimit !== undefined) found.push(...textFindings(at, "text", `The ${at.type} text`, textLimit, true));
  if (LABEL_REQUIRED.has(at.type) || LABEL_LIMITED.has(at.type)) {
    const max = at.type === "Footer" ? MAX_FOOTER_LABEL : labelLimit(at.type);
    found.push(...textFindings(at, "label", `The label of ${describe(at)}`, max, LABEL_REQUIRED.has(at.type)));
  }
  if (c["helper-text"] !== undefined) found.push(...textFindings(at, "helper-text", `The helper text of ${describe(at)}`, MAX_HELPER_TEXT, false));
  if (MAX_OPTIONS[at.type] !== undefined) found.push(...optionFindings(at));
  return found.filter((f): f is FlowFinding => f !== null);
}

function describe(at: ComponentAt): string {
  return typeof at.component.name === "string" ? `${at.type} '${at.component.name}'` : `the ${at.type}`;
}

/** A static text attribute: present (when required), a string, not blank, within its limit. */
function textFindings(at: ComponentAt, key: string, what: string, max: number, required: boolean): Array<FlowFinding | null> {
  const value = at.component[key];
  const path = child(at.path, key);
  if (value === undefined && !required) return [];
  if (typeof value !== "string") return [finding("INVALID_FLOW_JSON", path, `${what} must be a string.`, `Set ${key} to a text.`)];
  if (isDynamicText(value)) return [];
  return [blankText(path, what, value), textTooLong(path, what, value, max)];
}

/** A static data-source: 1..max options of {id, title}, ids unique, titles within the limit. Bound ones (`${data.x}`) are the endpoint's. */
function optionFindings(at: ComponentAt): FlowFinding[] {
  const source = at.component["data-source"];
  const path = child(at.path, "data-source");
  if (isDynamicText(source)) return [];
  if (!Array.isArray(source)) {
    return [finding("MISSING_OPTIONS", path, `${describe(at)} has no data-source options.`, "Give data-source an array of {id, title}.")];
  }
  const max = MAX_OPTIONS[at.type]!;
  if (source.length < MIN_OPTIONS) return [finding("MISSING_OPTIONS", path, `${describe(at)} has no options.`, "Add at least one option {id, title}.")];
  const found: FlowFinding[] = [];
  if (source.length > max) {
    found.push(
      finding("TOO_MANY_OPTIONS", path, `${describe(at)} has ${source.length} options; it shows at most ${max}.`, `Remove options to ${max} or fewer.`),
    );
  }
  const ids = new Set<string>();
  source.forEach((option, index) => {
    if (!isRecord(option) || typeof option.id !== "string" || typeof option.title !== "string") {
      found.push(
        finding("INVALID_FLOW_JSON", child(path, index), `Option ${index} of ${describe(at)} is not {id, title}.`, "Give each option a string id and title."),
      );
      return;
    }
    if (ids.has(option.id)) {
      found.push(
        finding("DUPLICATE_OPTION", child(path, index, "id"), `${describe(at)} has option id '${option.id}' more than once.`, "Give each option its own id."),
      );
    }
    ids.add(option.id);
    const what = `The title of option '${option.id}' of ${describe(at)}`;
    const problem =
      blankText(child(path, index, "title"), what, option.title) ?? textTooLong(child(path, index, "title"), what, option.title, MAX_OPTION_TITLE);
    if (problem) found.push(problem);
  });
  return found;
}
