import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { invalidRequest } from "@/lib/errors";

/**
 * A function's input_schema (JSON Schema 2020-12, the dialect MCP tools use) and the invoke
 * `arguments` checked against it, with Ajv: a maintained validator, compiled once per schema.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const MAX_CACHED = 200;

/** A saved input_schema must be a valid schema describing an object (arguments are always an object). */
export function assertJsonSchema(schema: Record<string, unknown>): void {
  if (!ajv.validateSchema(schema)) {
    const detail = ajv.errorsText(ajv.errors, { dataVar: "input_schema" });
    throw invalidRequest(`input_schema is not a valid JSON Schema: ${detail}.`, { input_schema: [detail] });
  }
  if (schema.type !== undefined && schema.type !== "object") {
    throw invalidRequest("input_schema must describe an object: invoke arguments are a JSON object.", { input_schema: ['Use "type": "object".'] });
  }
  validatorFor(schema);
}

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      throw invalidRequest(`input_schema cannot be compiled: ${(error as Error).message}.`, { input_schema: [(error as Error).message] });
    }
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, validate);
  }
  return validate;
}

function issuePath(error: ErrorObject): string {
  const pointer = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "required") pointer.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === "additionalProperties") pointer.push(String((error.params as { additionalProperty: string }).additionalProperty));
  return ["arguments", ...pointer].join(".");
}

/** 400 invalid_request with issues keyed `arguments.<path>` when the arguments do not match. */
export function assertArgumentsMatch(schema: Record<string, unknown>, args: Record<string, unknown>): void {
  const validate = validatorFor(schema);
  if (validate(args)) return;
  const issues: Record<string, string[]> = {};
  for (const error of validate.errors ?? []) {
    const path = issuePath(error);
    (issues[path] ??= []).push(error.message ?? error.keyword);
  }
  throw invalidRequest("arguments do not match the function's input_schema.", issues);
}
