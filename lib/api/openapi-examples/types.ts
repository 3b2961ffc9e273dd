/** One named example of a body (OpenAPI Example Object: summary + value). */
export interface Example {
  summary: string;
  description?: string;
  value: unknown;
}

/**
 * The examples of one operation, keyed by name in each map (they become the media type's `examples`).
 * Every value must parse with the operation's zod schema: tests/openapi-examples.test.ts checks it.
 */
export interface OperationExamples {
  /** Request bodies (operations that take one). */
  request?: Record<string, Example>;
  /** 200 responses. */
  response: Record<string, Example>;
  /** Errors this operation answers beyond the generic ones (lib/api/openapi-examples/errors.ts), by HTTP status. */
  errors?: Record<number, Record<string, Example>>;
}
