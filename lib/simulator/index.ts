import path from "node:path";
import { env } from "@/lib/config";
import { appSecretFor, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { PLATFORM_SLUG, type SimulatorContext, type StatusDelays } from "@/lib/simulator/context";
import { customerInbox, customerMessage } from "@/lib/simulator/customer";
import { sendMessage } from "@/lib/simulator/graph";
import { FLOW_ROUTES, routeFlows } from "@/lib/simulator/flows-routes";
import { customerFlowExchange } from "@/lib/simulator/flow-exchange";
import { graphError, json, simulatorError } from "@/lib/simulator/http";
import { cdnMedia, downloadMedia, getMediaInfo, uploadMedia } from "@/lib/simulator/media";
import { SimulatorState } from "@/lib/simulator/state";
import { TEMPLATE_ROUTES, routeTemplates } from "@/lib/simulator/templates-routes";
import { ACCOUNT_ROUTES, routeAccounts } from "@/lib/simulator/accounts";
import { AGENT_ROUTES, routeAgents } from "@/lib/simulator/agents";
import { THROUGHPUT_ROUTES, routeThroughput } from "@/lib/simulator/throughput";
import { DEFAULT_TEMPLATE_REVIEW_MS, scheduleTemplateReview, templateReviewDelayMs } from "@/lib/simulator/templates-review";
import { persistState } from "@/lib/simulator/persistence";

/**
 * The built-in provider simulator, used when PROVIDER_GRAPH_URL is unset. The app serves it at
 * /api/simulator/...; `handle(request, path)` takes what follows /api/simulator.
 *
 * Routes:
 *   POST /graph/{sender_id}/messages   Graph API send (Cloud API body for PLATFORM_A senders, Send API body for B/C)
 *   GET  /graph/{media_id}             media metadata {messaging_product, url, mime_type, sha256, file_size, id} (Bearer)
 *   GET  /media-download/{media_id}    media bytes (Bearer)
 *   GET  /cdn/{media_id}               media bytes, no auth (B/C attachment URLs)
 *   POST /customer/messages            act as the customer: signed webhook to our endpoint, answered once it took it
 *                                      (retried as the provider retries: delivery.ts, customer-delivery.ts)
 *   POST /customer/media               upload bytes (Content-Type; ?filename=) → {id, url, mime_type, sha256, file_size}
 *   GET  /customer/inbox?sender_id=&address=[&wait=&count=]   business messages sent to that customer, oldest first;
 *                                      wait (s, ≤ 30): until it holds count (default 1) messages
 *   Flows (flows-routes.ts; the webhook they send: flows-webhook.ts):
 *   POST /graph/{waba_id}/flows        create a flow {name, categories, flow_json, endpoint_uri?, publish?} → {id, success, validation_errors}
 *   POST /graph/{flow_id}/publish      DRAFT → PUBLISHED (139002 otherwise); POST /graph/{flow_id}/deprecate PUBLISHED → DEPRECATED (139003)
 *   GET  /graph/{flow_id}?fields=      a flow's id, name, status, validation_errors, ... (an id not among the flows is a media id)
 *   POST|GET /graph/{phone_number_id}/whatsapp_business_encryption   register / read the number's RSA public key
 *   POST /control/flows/{flow_id}/status {status}   test hook: BLOCKED | THROTTLED | PUBLISHED | DEPRECATED, with the webhook
 *   POST /control/flows/fail-next-publish {business_account_id, message?, code?}   test hook: the next publish there fails
 *   GET  /customer/flows/{flow_id}     the flow as the customer's app renders it {id, name, status, flow_json, endpoint_uri}
 *   Message templates (templates-routes.ts; review and webhook: templates-review.ts):
 *   POST /graph/{waba_id}/message_templates   submit {name, language, category, components, parameter_format?} → {id, status: PENDING, category}
 *   DELETE /graph/{waba_id}/message_templates?name=&hsm_id=   delete one template (or every language of the name)
 *   GET  /graph/{template_id}?fields=  a template's id, name, language, status, category, components, ...
 *   POST /templates/{meta_template_id}/review {status, reason?}   test hook: force APPROVED | REJECTED | PAUSED | DISABLED, with the webhook
 *   Phone numbers and business accounts (accounts.ts): every one is in good standing
 *   GET  /graph/{phone_number_id}?fields=status,name_status,throughput,...   → {id, status: CONNECTED, name_status: APPROVED, throughput: {level}, ...}
 *   GET  /graph/{waba_id}?fields=account_review_status,business_verification_status,primary_funding_id   → APPROVED, verified, a funding id
 *   Business agents (agents.ts): POST /graph/{phone_number_id}/business_agents, POST|GET /graph/{agent_id},
 *   POST /control/agents/fail-next {phone_number_id, message?, code?, status?}   test hook: the next create/update there fails
 *   Throughput (throughput.ts): each PLATFORM_A number sends 80 messages a second unless set; beyond: 130429
 *   POST /control/numbers/throughput {phone_number_id, messages_per_second}   test hook: set it (≥ 1000 is level HIGH)
 *   GET  /control/numbers/throughput?phone_number_id=   its rate, level and accepted / refused counts
 *   GET  /control/numbers/sent?phone_number_id=   messages per customer from the number (who got more than one)
 *   GET  /                             this list, as JSON
 * Test hook: PLATFORM_A recipients whose number ends in "0000" are undeliverable (131026).
 * PLATFORM_A status callbacks due for one sender within the same 50 ms are posted as one webhook (webhooks.ts).
 * With `stateDir`, what the provider would remember (windows, inboxes, flows, templates, ...) survives
 * a restart (persistence.ts, snapshot.ts).
 */
export interface SimulatorOptions {
  /** Where our webhook endpoints live: callbacks go to `${callbackBaseUrl}/api/providers/platform-x/webhook`. */
  callbackBaseUrl: string | (() => string);
  appSecret: (platform: ProviderPlatform) => string;
  /** Delay after an accepted send of each status callback; default 50 / 150 / 300 ms. */
  statusDelaysMs?: Partial<StatusDelays>;
  /** Delay before a submitted template is reviewed (approved, or REJECTED INVALID_FORMAT); default 2000 ms. */
  templateReviewMs?: number | (() => number);
  now?: () => Date;
  /** The simulator's own public base URL (…/api/simulator) for media URLs; default: taken from each request. */
  publicBaseUrl?: string | (() => string);
  log?: (message: string, detail?: unknown) => void;
  /** Waits between attempts of a webhook our endpoint did not take; default WEBHOOK_RETRY_DELAYS_MS (delivery.ts). */
  webhookRetryDelaysMs?: readonly number[];
  /** How long `POST /customer/messages` waits for our endpoint to take the message; default 15 s (customer-delivery.ts). */
  customerWaitMs?: number;
  /**
   * Where the provider-side memory is kept across restarts (persistence.ts): a folder of its own.
   * Absent: memory only, as tests want.
   */
  stateDir?: string;
}

export interface Simulator {
  handle(request: Request, path: string): Promise<Response>;
  /** Forgets everything and cancels pending callbacks. */
  reset(): void;
  /** Cancels pending callbacks and retries and saves what it remembers (stateDir), keeping it for the next start. */
  close(): void;
  readonly state: SimulatorState;
}

const DEFAULT_STATUS_DELAYS_MS: StatusDelays = { sent: 50, delivered: 150, read: 300 };

const ROUTES = [
  "POST /graph/{sender_id}/messages",
  "GET /graph/{media_id}",
  "GET /media-download/{media_id}",
  "GET /cdn/{media_id}",
  "POST /customer/messages",
  "POST /customer/media",
  "GET /customer/inbox?sender_id=&address=&wait=&count=",
  "POST /customer/flows/exchange",
];

const ALL_ROUTES = [...ROUTES, ...FLOW_ROUTES, ...TEMPLATE_ROUTES, ...ACCOUNT_ROUTES, ...AGENT_ROUTES, ...THROUGHPUT_ROUTES];

/** Route params may arrive decoded already (Next.js) or not (raw paths): decode once, never throw. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function resolve(value: string | (() => string)): string {
  return (typeof value === "function" ? value() : value).replace(/\/+$/, "");
}

function reviewDelay(option: SimulatorOptions["templateReviewMs"]): () => number {
  return typeof option === "function" ? option : () => option ?? DEFAULT_TEMPLATE_REVIEW_MS;
}

/** The simulator's waits (status delays, retries, reviews): cancelAll() wakes every one with false. */
class Sleepers {
  private readonly sleeping = new Map<ReturnType<typeof setTimeout>, (awake: boolean) => void>();
  private generation = 0;

  sleep(ms: number): Promise<boolean> {
    const started = this.generation;
    return new Promise<boolean>((done) => {
      const timer = setTimeout(() => {
        this.sleeping.delete(timer);
        done(started === this.generation);
      }, ms);
      this.sleeping.set(timer, done);
    });
  }

  cancelAll(): void {
    this.generation += 1;
    for (const [timer, done] of this.sleeping) {
      clearTimeout(timer);
      done(false);
    }
    this.sleeping.clear();
  }
}

async function route(ctx: SimulatorContext, request: Request, path: string): Promise<Response> {
  const segments = path.split("?")[0]!.split("/").filter(Boolean).map(safeDecode);
  const method = request.method.toUpperCase();
  const [head, second, third] = segments;
  const only = (allowed: string, run: () => Response | Promise<Response>) =>
    method === allowed ? run() : simulatorError(405, `Use ${allowed} for this route`);

  if (segments.length === 0) return only("GET", () => json(200, { object: "simulator", routes: ALL_ROUTES }));
  const flows = routeFlows(ctx, request, method, segments) ?? routeAgents(ctx, request, method, segments) ?? routeThroughput(ctx, request, method, segments);
  if (flows) return flows;
  const templatesOrAccounts = routeTemplates(ctx, request, method, segments) ?? routeAccounts(ctx, request, method, segments);
  if (templatesOrAccounts) return templatesOrAccounts;
  if (head === "graph" && second) {
    if (segments.length === 3 && third === "messages") return only("POST", () => sendMessage(ctx, request, second));
    if (segments.length === 2) return only("GET", () => getMediaInfo(ctx, request, path, second));
    return graphError({ status: 400, code: 100, subcode: 33, type: "GraphMethodException", message: `Unsupported ${method.toLowerCase()} request.` });
  }
  if (head === "media-download" && second && segments.length === 2) return only("GET", () => downloadMedia(ctx, request, second));
  if (head === "cdn" && second && segments.length === 2) return only("GET", () => cdnMedia(ctx, second));
  if (head === "customer" && second === "flows" && third === "exchange" && segments.length === 3) return only("POST", () => customerFlowExchange(ctx, request));
  if (head === "customer" && segments.length === 2) {
    if (second === "messages") return only("POST", () => customerMessage(ctx, request, path));
    if (second === "media") return only("POST", () => uploadMedia(ctx, request, path));
    if (second === "inbox") return only("GET", () => customerInbox(ctx, request));
  }
  return simulatorError(404, `No simulator route ${method} /${segments.join("/")}`);
}

export function createSimulator(options: SimulatorOptions): Simulator {
  const state = new SimulatorState();
  const timers = new Sleepers();

  const ctx: SimulatorContext = {
    state,
    now: options.now ?? (() => new Date()),
    webhookUrl: (platform) => `${resolve(options.callbackBaseUrl)}/api/providers/${PLATFORM_SLUG[platform]}/webhook`,
    appSecret: options.appSecret,
    statusDelaysMs: { ...DEFAULT_STATUS_DELAYS_MS, ...options.statusDelaysMs },
    templateReviewMs: reviewDelay(options.templateReviewMs),
    publicBase(request, path) {
      if (options.publicBaseUrl) return resolve(options.publicBaseUrl);
      const url = new URL(request.url);
      const suffix = `/${path.replace(/^\/+/, "")}`.replace(/\/+$/, "");
      if (suffix !== "" && url.pathname.endsWith(suffix)) return `${url.origin}${url.pathname.slice(0, -suffix.length)}`;
      return `${resolve(options.callbackBaseUrl)}/api/simulator`;
    },
    sleep: (ms) => timers.sleep(ms),
    log: options.log ?? ((message, detail) => console.warn(`[simulator] ${message}`, detail ?? "")),
    ...(options.webhookRetryDelaysMs ? { webhookRetryDelaysMs: options.webhookRetryDelaysMs } : {}),
    ...(options.customerWaitMs !== undefined ? { customerWaitMs: options.customerWaitMs } : {}),
  };
  const persistence = options.stateDir ? persistState(state, options.stateDir, ctx.now, (message) => ctx.log(message)) : null;
  // A review cut short by the restart is the provider's to finish: it runs again from the start.
  for (const template of state.templates.values()) if (template.status === "PENDING") scheduleTemplateReview(ctx, template);

  return {
    state,
    async handle(request, path) {
      try {
        return await route(ctx, request, path);
      } catch (error) {
        ctx.log("request failed", error);
        return simulatorError(500, "Simulator error");
      } finally {
        // Flows, templates, agents and keys change in place: any request that may have changed one counts.
        if (request.method !== "GET") state.changed();
      }
    },
    reset() {
      timers.cancelAll();
      state.reset();
    },
    close() {
      timers.cancelAll();
      persistence?.close();
    },
  };
}

const GLOBAL_KEY = Symbol.for("svc.simulator");

/**
 * The one simulator of this process (kept on globalThis so dev-server module reloads share it):
 * callbacks go to SVC_PUBLIC_URL, signed with appSecretFor (its documented simulator fallback).
 * SVC_SIMULATOR_TEMPLATE_REVIEW_MS (default 2000) is the template review delay, read at each
 * submission; the simulator's own setting, so it is read here rather than in lib/config.ts.
 * Its memory lives in $SVC_DATA_DIR/simulator and is saved when the process exits (Next's server
 * exits through process.exit on SIGINT and SIGTERM).
 */
export function sharedSimulator(): Simulator {
  const holder = globalThis as { [GLOBAL_KEY]?: Simulator };
  if (!holder[GLOBAL_KEY]) {
    const simulator = createSimulator({
      callbackBaseUrl: () => env().publicUrl,
      appSecret: (platform) => appSecretFor(platform) ?? simulatorAppSecret(platform),
      templateReviewMs: () => templateReviewDelayMs(process.env.SVC_SIMULATOR_TEMPLATE_REVIEW_MS),
      stateDir: path.join(env().dataDir, "simulator"),
    });
    process.once("exit", () => simulator.close());
    holder[GLOBAL_KEY] = simulator;
  }
  return holder[GLOBAL_KEY];
}
