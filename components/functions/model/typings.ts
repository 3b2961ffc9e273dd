import { SECRET_NAME_PATTERN } from "@/lib/shared/functions";
import { RUNTIME_GLOBALS } from "./runtime-globals";

/**
 * What the code editor knows about a hosted function's world (docs/spec/decisions.md "Hosted
 * functions"): the events, `ctx`, `env` with the function's secrets and `env.KV`, and the handler
 * shapes of both runtimes. A global declaration file (no import or export), added to Monaco's
 * TypeScript service as an extra lib; the JSDoc is what hovers and completion show.
 */
const EVENT_TYPES = `
/** The customer a run is about; every field is null when the run has none. */
interface FunctionContact {
  /** The contact's id in svc (\`ct_...\`), or the id a test gave. */
  readonly id: string | null;
  /** E.164 phone number, e.g. "+15551234567". */
  readonly phone: string | null;
  readonly name: string | null;
}

/**
 * An inbound message: the event of a test run and of an automation's \`run_function\` step.
 * Narrow with \`event.type === "message"\`.
 */
interface FunctionMessageEvent {
  readonly type: "message";
  /** The trigger the function is written for (its trigger_type). */
  readonly trigger: "KEYWORD" | "WELCOME" | "ANY_MESSAGE";
  /** The message text ("" when there is none). */
  readonly text: string;
  readonly contact: FunctionContact | null;
  /** Null in a test run. */
  readonly conversation_id: string | null;
  /** Null in a test run. */
  readonly channel_id: string | null;
  /** The automation run's variables ({} in a test run). */
  readonly variables: Record<string, unknown>;
}

/**
 * A call with arguments: POST /functions/{id}/invoke, an agent tool or an MCP tool.
 * Narrow with \`event.type === "invoke"\`.
 */
interface FunctionInvokeEvent {
  readonly type: "invoke";
  /** The caller's arguments, already checked against the function's input_schema when it has one. */
  readonly arguments: Record<string, unknown>;
  readonly contact: FunctionContact | null;
}

/** What a run receives: a message (test, automation) or an invoke (API, agent tool, MCP tool). */
type FunctionEvent = FunctionMessageEvent | FunctionInvokeEvent;

/** \`ctx\`: about this run. */
interface FunctionContext {
  readonly function_id: string;
  readonly function_slug: string;
  /** The invocation log entry of this run. */
  readonly invocation_id: string;
  readonly project_id: string;
  /** Who started the run. */
  readonly event_type: "test" | "invoke" | "automation" | "agent_tool" | "mcp_tool";
}

/** The third argument of a WFP \`fetch\` handler. */
interface WorkerContext extends FunctionContext {
  /** Keeps the run going until the promise settles, within the run's 10 s wall-time limit. */
  waitUntil(promise: Promise<unknown>): void;
  /** Accepted for compatibility with workers code; it changes nothing here. */
  passThroughOnException(): void;
}
`;

const KV_TYPES = `
interface KVListResult {
  /** The keys of this page, in key order. */
  readonly keys: { readonly name: string }[];
  /** True when there are no more keys after this page. */
  readonly list_complete: boolean;
  /** Pass as \`cursor\` to read the next page; null on the last one. */
  readonly cursor: string | null;
}

/**
 * The function's own key-value store (\`env.KV\`), kept between runs and visible to no other function.
 * Keys ≤ 512 bytes, values ≤ 64 KiB (strings: JSON.stringify objects), at most 1,000 keys.
 */
interface KVNamespace {
  /**
   * Reads a value.
   * @param key The key (≤ 512 bytes).
   * @returns The stored string, or null when the key is not set.
   * @example const visits = Number((await env.KV.get("visits")) ?? 0);
   */
  get(key: string): Promise<string | null>;
  /**
   * Stores a value, replacing any earlier one.
   * @param key The key (≤ 512 bytes).
   * @param value A string ≤ 64 KiB; JSON.stringify objects.
   * @example await env.KV.put("visits", String(visits + 1));
   */
  put(key: string, value: string): Promise<void>;
  /**
   * Removes a key; removing a missing key is not an error.
   * @param key The key (≤ 512 bytes).
   */
  delete(key: string): Promise<void>;
  /**
   * Lists keys in key order, a page at a time.
   * @param options \`prefix\` keeps keys that start with it; \`limit\` is the page size; \`cursor\` continues a listing.
   * @example const { keys } = await env.KV.list({ prefix: "user:" });
   */
  list(options?: { prefix?: string; limit?: number; cursor?: string }): Promise<KVListResult>;
}
`;

const HANDLER_TYPES = `
/** \`env\` (a global in PLAIN functions, the second argument of a WFP \`fetch\`): the secrets and the KV store. */
declare const env: FunctionEnv;

/**
 * A PLAIN function: \`export default async function (event, ctx)\` (or \`export async function handler\`),
 * returning any JSON value (at most 256 KiB).
 */
type FunctionHandler = (event: FunctionEvent, ctx: FunctionContext) => unknown;

/**
 * A WFP (workers-style) function: \`export default { async fetch(request, env, ctx) }\`. The request is
 * a POST whose JSON body is the event; the result is the Response's JSON body, else its text.
 */
interface WorkerHandler {
  fetch(request: Request, env: FunctionEnv, ctx: WorkerContext): Response | Promise<Response>;
}
`;

/** The secret names that can be properties of `env` (KV is the store's own name: the store wins). */
function secretProperties(secretNames: readonly string[]): string {
  return [...new Set(secretNames)]
    .filter((name) => SECRET_NAME_PATTERN.test(name) && name !== "KV")
    .sort()
    .map((name) => `  /** The secret ${name}, set in the Secrets tab. */\n  readonly ${name}: string;`)
    .join("\n");
}

/**
 * The declaration file for a function whose secrets have these names. Only secrets that exist are
 * properties of `env`, so reading one that was never set is flagged while typing.
 */
export function functionTypings(secretNames: readonly string[]): string {
  const env = `
/** The function's secrets (strings, set in the Secrets tab) and its key-value store. */
interface FunctionEnv {
  /** The function's own key-value store: get, put, delete, list. */
  readonly KV: KVNamespace;
${secretProperties(secretNames)}
}
`;
  return [EVENT_TYPES, KV_TYPES, env, HANDLER_TYPES, RUNTIME_GLOBALS].join("");
}

/** Where the declarations live in the TypeScript service (a path no model uses). */
export const FUNCTION_TYPINGS_PATH = "file:///svc/hosted-function-globals.d.ts";
