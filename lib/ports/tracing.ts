import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

/**
 * Spans around API operations and job runs (README "Health and metrics", Traces). Off unless
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/server/tracing.ts starts the SDK then): while off, nothing
 * here runs but a boolean check, so an untraced request pays nothing. Attributes are templates and
 * names only (route, operation, job), never ids, addresses, bodies or error messages: those can hold
 * personal data.
 */
const KEY = Symbol.for("svc.tracingOn");
const holder = globalThis as { [KEY]?: boolean };

export function tracingOn(): boolean {
  return holder[KEY] === true;
}

export function setTracingOn(on: boolean): void {
  holder[KEY] = on;
}

const tracer = () => trace.getTracer("svc");

/**
 * Runs `work` inside a span named `name` (a child of the active one: next's request span under
 * `next start`). `finish` adds what is known at the end (the status code). A throw marks the span an
 * error by the error's class name only.
 */
export function inSpan<T>(
  name: string,
  kind: "server" | "consumer",
  attributes: Attributes,
  work: () => Promise<T>,
  finish?: (span: Span, result: T) => void,
): Promise<T> {
  return tracer().startActiveSpan(name, { kind: kind === "server" ? SpanKind.SERVER : SpanKind.CONSUMER, attributes }, async (span) => {
    try {
      const result = await work();
      finish?.(span, result);
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
      throw error;
    } finally {
      span.end();
    }
  });
}
