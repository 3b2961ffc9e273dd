import { componentTypeOf, supportsSetting } from "./compile-components";
import { blankText, finding, textTooLong } from "./finding";
import { FIELD_NAME_PATTERN, MAX_HELPER_TEXT, MAX_OPTION_TITLE, MAX_OPTIONS, MIN_OPTIONS, RESERVED_FIELD_NAMES, labelLimit } from "./limits";
import { child } from "./pointer";
import type { DraftField, FlowFinding } from "./types";

/** The checks of one draft field; `path` points at the field ("/screens/1/fields/0"). */
export function fieldFindings(field: DraftField, path: string): FlowFinding[] {
  return [...nameFindings(field, path), ...textFindings(field, path), ...settingFindings(field, path), ...optionFindings(field, path)];
}

function nameFindings(field: DraftField, path: string): FlowFinding[] {
  const at = child(path, "name");
  if (RESERVED_FIELD_NAMES.has(field.name)) {
    return [finding("INVALID_FIELD_NAME", at, `Field name '${field.name}' is reserved: the completion message uses it.`, "Rename the field.")];
  }
  if (FIELD_NAME_PATTERN.test(field.name)) return [];
  return [
    finding(
      "INVALID_FIELD_NAME",
      at,
      `Field name '${field.name}' must use letters, digits and underscores, starting with a letter.`,
      "Rename the field, for example first_name.",
    ),
  ];
}

function textFindings(field: DraftField, path: string): FlowFinding[] {
  const label = `The label of field '${field.name}'`;
  const found = [
    blankText(child(path, "label"), label, field.label),
    textTooLong(child(path, "label"), label, field.label, labelLimit(componentTypeOf(field.type))),
  ];
  if (field.helper_text !== undefined && supportsSetting(field.type, "helper_text")) {
    const helper = `The helper text of field '${field.name}'`;
    found.push(blankText(child(path, "helper_text"), helper, field.helper_text));
    found.push(textTooLong(child(path, "helper_text"), helper, field.helper_text, MAX_HELPER_TEXT));
  }
  return found.filter((f): f is FlowFinding => f !== null);
}

/** Settings the field's component cannot show would be silently dropped: say so instead. */
function settingFindings(field: DraftField, path: string): FlowFinding[] {
  const found: FlowFinding[] = [];
  for (const setting of ["options", "helper_text", "min_length", "max_length"] as const) {
    if (field[setting] === undefined || supportsSetting(field.type, setting)) continue;
    found.push(
      finding(
        "UNSUPPORTED_SETTING",
        child(path, setting),
        `Field '${field.name}' is a ${field.type} field, which has no ${setting}.`,
        `Remove ${setting} from the field, or change its type.`,
      ),
    );
  }
  const { min_length: min, max_length: max } = field;
  if (min !== undefined && max !== undefined && min > max && supportsSetting(field.type, "min_length")) {
    found.push(
      finding(
        "INVALID_LENGTH_RANGE",
        child(path, "min_length"),
        `Field '${field.name}' has min_length ${min} above its max_length ${max}.`,
        "Make min_length at most max_length.",
      ),
    );
  }
  return found;
}

function optionFindings(field: DraftField, path: string): FlowFinding[] {
  if (!supportsSetting(field.type, "options")) return [];
  const at = child(path, "options");
  const options = field.options ?? [];
  const max = MAX_OPTIONS[componentTypeOf(field.type)] ?? 0;
  if (options.length < MIN_OPTIONS) {
    return [finding("MISSING_OPTIONS", at, `Field '${field.name}' is a ${field.type} field with no options.`, "Add at least one option {id, title}.")];
  }
  const found: FlowFinding[] = [];
  if (options.length > max) {
    found.push(
      finding(
        "TOO_MANY_OPTIONS",
        at,
        `Field '${field.name}' has ${options.length} options; a ${field.type} field shows at most ${max}.`,
        `Remove options to ${max} or fewer${field.type === "dropdown" ? "" : ", or use a dropdown (up to 200)"}.`,
      ),
    );
  }
  const seen = new Set<string>();
  options.forEach((option, index) => {
    if (seen.has(option.id)) {
      found.push(
        finding(
          "DUPLICATE_OPTION",
          child(at, index, "id"),
          `Field '${field.name}' has option id '${option.id}' more than once.`,
          "Give each option its own id.",
        ),
      );
    }
    seen.add(option.id);
    const title = `The title of option '${option.id}' of field '${field.name}'`;
    const problem = blankText(child(at, index, "title"), title, option.title) ?? textTooLong(child(at, index, "title"), title, option.title, MAX_OPTION_TITLE);
    if (problem) found.push(problem);
  });
  return found;
}
