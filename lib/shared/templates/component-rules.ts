// Per-component rules (HEADER, BODY, FOOTER), each adding issues keyed by the request path.
import { isRecord } from "@/lib/json";
import { HEADER_FORMATS, MEDIA_HEADER_FORMATS, TEMPLATE_LIMITS as LIMITS, addIssue, upper, type ComponentType, type HeaderFormat } from "./types";
import { checkExamples, checkText, checkVariables, nonBlank, oneOf, placeholders, type Component, type Ctx } from "./template-text";
import { checkButtons } from "./button-rules";

export const COMPONENT_CHECKS: Record<ComponentType, (ctx: Ctx, component: Component, path: string) => void> = {
  HEADER: checkHeader,
  BODY: checkBody,
  FOOTER: checkFooter,
  BUTTONS: checkButtons,
};

function checkHeader(ctx: Ctx, component: Component, path: string) {
  if (ctx.category === "AUTHENTICATION") {
    return addIssue(ctx.issues, `${path}.type`, "AUTHENTICATION templates have no HEADER: the provider writes their text. Remove this component.");
  }
  const format = oneOf(HEADER_FORMATS, upper(component.format));
  if (!format) return addIssue(ctx.issues, `${path}.format`, `One of ${HEADER_FORMATS.join(", ")}.`);
  if (format === "TEXT") {
    const text = checkText(ctx, `${path}.text`, component.text, "The header", LIMITS.headerText);
    if (text === undefined) return;
    const names = checkVariables(ctx, `${path}.text`, text);
    if (names.length > LIMITS.headerVariables) {
      addIssue(ctx.issues, `${path}.text`, `A text header holds at most one variable; this one has ${names.length}. Move the others to the body.`);
    }
    return checkExamples(ctx, path, component, names, "header");
  }
  if (MEDIA_HEADER_FORMATS.has(format)) checkMediaExample(ctx, path, component, format);
}

function checkMediaExample(ctx: Ctx, path: string, component: Component, format: HeaderFormat) {
  const handles = isRecord(component.example) ? component.example.header_handle : undefined;
  if (Array.isArray(handles) && handles.length > 0 && handles.every(nonBlank)) return;
  addIssue(
    ctx.issues,
    `${path}.example.header_handle`,
    `Required: a ${format} header needs a sample for review, example.header_handle: ["<handle>"], the handle of a file uploaded with the provider's resumable upload.`,
  );
}

function checkBody(ctx: Ctx, component: Component, path: string) {
  if (ctx.category === "AUTHENTICATION") {
    if (component.text !== undefined) {
      addIssue(ctx.issues, `${path}.text`, 'AUTHENTICATION templates use the provider\'s preset text ("<code> is your verification code."): remove text.');
    }
    if (component.add_security_recommendation !== undefined && typeof component.add_security_recommendation !== "boolean") {
      addIssue(ctx.issues, `${path}.add_security_recommendation`, "true or false.");
    }
    return;
  }
  const text = checkText(ctx, `${path}.text`, component.text, "The body", LIMITS.bodyText);
  if (text === undefined) return;
  checkExamples(ctx, path, component, checkVariables(ctx, `${path}.text`, text), "body");
}

function checkFooter(ctx: Ctx, component: Component, path: string) {
  const minutes = component.code_expiration_minutes;
  const { min, max } = LIMITS.codeExpirationMinutes;
  if (ctx.category === "AUTHENTICATION") {
    if (component.text !== undefined) addIssue(ctx.issues, `${path}.text`, "AUTHENTICATION footers are preset: remove text and set code_expiration_minutes.");
    if (minutes !== undefined && !(Number.isInteger(minutes) && (minutes as number) >= min && (minutes as number) <= max)) {
      addIssue(ctx.issues, `${path}.code_expiration_minutes`, `A whole number of minutes, ${min} to ${max}.`);
    }
    return;
  }
  if (minutes !== undefined)
    addIssue(ctx.issues, `${path}.code_expiration_minutes`, "Only AUTHENTICATION templates have a code expiry; write this footer as text.");
  const text = checkText(ctx, `${path}.text`, component.text, "The footer", LIMITS.footerText);
  if (text !== undefined && placeholders(text).length > 0) addIssue(ctx.issues, `${path}.text`, "A footer cannot hold variables: move them to the body.");
}
