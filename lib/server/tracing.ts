import { context, trace, type Attributes } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import { setTracingOn } from "@/lib/ports/tracing";

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON), only when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: off by default, and no collector is needed to run
 * (README "Health and metrics", Traces). `next start` starts it from instrumentation.ts, so next's own
 * request spans are exported with ours (lib/ports/tracing.ts: API operations, job runs); `npm run
 * worker` starts it itself. Spans leave the process scrubbed (ScrubbingExporter): attributes from an
 * allow-list of templates and names, raw paths replaced by route templates, no events (next records
 * exceptions with their messages there), no status message.
 */

const ALLOWED_ATTRIBUTES = new Set([
  "http.request.method",
  "http.method",
  "http.route",
  "http.response.status_code",
  "http.status_code",
  "next.route",
  "next.span_name",
  "next.span_type",
  "next.rsc",
  "svc.operation",
  "svc.job.retry_count",
  "messaging.system",
  "messaging.destination.name",
]);

const METHOD_AND_PATH = /^([A-Z]+) \//;

/** A span as it may leave the process: see the module comment. */
export function scrubbed(span: ReadableSpan): ReadableSpan {
  const attributes: Attributes = {};
  let dropped = 0;
  for (const [key, value] of Object.entries(span.attributes)) {
    if (ALLOWED_ATTRIBUTES.has(key)) attributes[key] = value;
    else dropped++;
  }
  // next names its request span "<METHOD> <raw path>" until it knows the route: ids would leave in the name.
  const method = METHOD_AND_PATH.exec(span.name)?.[1];
  const route = attributes["http.route"] ?? attributes["next.route"];
  const name = method ? `${method} ${typeof route === "string" ? route : "(unmatched)"}` : span.name;
  return {
    name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanContext ? { parentSpanContext: span.parentSpanContext } : {}),
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes,
    links: span.links,
    events: [],
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount + dropped,
    droppedEventsCount: span.droppedEventsCount + span.events.length,
    droppedLinksCount: span.droppedLinksCount,
  };
}

class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: Parameters<SpanExporter["export"]>[1]): void {
    this.inner.export(spans.map(scrubbed), done);
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export interface Tracing {
  /** Sends every span ended so far (tests; a shutdown flushes by itself). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces; null: tracing off. */
export function tracesUrl(environment: Record<string, string | undefined> = process.env): string | null {
  if (environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (environment.OTEL_EXPORTER_OTLP_ENDPOINT) return `${environment.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
  return null;
}

/**
 * Starts exporting spans to `url` (default tracesUrl()), or returns null and changes nothing when
 * there is none. One per process: it registers the global tracer provider and context manager.
 */
export function startTracing(options: { serviceName: string; url?: string | null; environment?: Record<string, string | undefined> }): Tracing | null {
  const environment = options.environment ?? process.env;
  const url = options.url === undefined ? tracesUrl(environment) : options.url;
  if (!url) return null;
  const exporter = new ScrubbingExporter(new OTLPTraceExporter({ url }));
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": environment.OTEL_SERVICE_NAME || options.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  setTracingOn(true);
  return {
    flush: () => provider.forceFlush(),
    async stop() {
      setTracingOn(false);
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}
