/**
 * The Test panel's input, checked before it is sent: the invoke arguments are a JSON object, and a
 * test contact has both id and phone or neither (FunctionTestRequest). The API checks again; these
 * only save a round trip and point at the field.
 */

type JsonObjectResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function parseJsonObject(text: string, what: string, example: string): JsonObjectResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, error: `${what} must be a JSON object, e.g. ${example}.` };
  return { ok: true, value: value as Record<string, unknown> };
}

/** The invoke arguments: empty text is `{}`. */
export function parseArguments(text: string): JsonObjectResult {
  return text.trim() ? parseJsonObject(text, "Arguments", '{"city": "Lisbon"}') : { ok: true, value: {} };
}

export interface TestContactInput {
  id: string;
  phone: string;
  name: string;
}

export type TestContactResult =
  { ok: true; value: { id: string; phone: string; name?: string } | undefined } | { ok: false; field: "id" | "phone"; error: string };

export function testContact(input: TestContactInput): TestContactResult {
  const id = input.id.trim();
  const phone = input.phone.trim();
  const name = input.name.trim();
  if (!id && !phone && !name) return { ok: true, value: undefined };
  if (!id) return { ok: false, field: "id", error: "A test contact needs an id (any text, e.g. ct_test)." };
  if (!phone) return { ok: false, field: "phone", error: "A test contact needs a phone number." };
  return { ok: true, value: name ? { id, phone, name } : { id, phone } };
}

/**
 * The input_schema editor's text as the PATCH body wants it: empty → null (clears the schema), else
 * a JSON object.
 */
export type SchemaResult = { ok: true; value: Record<string, unknown> | null } | { ok: false; error: string };

export function parseInputSchema(text: string): SchemaResult {
  return text.trim() ? parseJsonObject(text, "The schema", '{"type": "object", "properties": {}}') : { ok: true, value: null };
}
