import { randomInt } from "node:crypto";
import type { SimulatorContext } from "@/lib/simulator/context";
import { bearerToken, graphError, invalidParameter, invalidToken, isRecord, json, readJson, simulatorError } from "@/lib/simulator/http";
import type { SimulatorAgent, SimulatorState } from "@/lib/simulator/state";

/**
 * The provider's business agent API as the simulator serves it (the paths are our assumption, see
 * lib/ports/provider/agents.ts), and its test hook:
 *   POST /graph/{phone_number_id}/business_agents {enabled, settings, skills} → {id} (one agent per number: a repeat updates it)
 *   POST /graph/{agent_id} {enabled, settings, skills} → {success: true}
 *   GET  /graph/{agent_id}  → {id, phone_number_id, enabled, settings, skills, created_at, updated_at}
 *   POST /control/agents/fail-next {phone_number_id, message?, code?, status?}
 *        → the next create or update of that number's agent fails (code 100, HTTP 400 unless given) → {phone_number_id, armed: true}
 */
export const AGENT_ROUTES = [
  "POST /graph/{phone_number_id}/business_agents",
  "POST /graph/{agent_id}",
  "GET /graph/{agent_id}",
  "POST /control/agents/fail-next",
];

const MAX_AGENTS = 2_000;
const DEFAULT_FAILURE = "The provider could not provision the business agent right now (simulated failure).";

type Answer = Response | Promise<Response>;

function newAgentId(state: SimulatorState): string {
  for (;;) {
    const id = `${randomInt(1, 10)}${String(randomInt(0, 1e8)).padStart(8, "0")}${String(randomInt(0, 1e6)).padStart(6, "0")}`;
    if (!state.agents.has(id) && !state.flows.has(id) && !state.templates.has(id)) return id;
  }
}

function agentOfNumber(state: SimulatorState, phoneNumberId: string): SimulatorAgent | undefined {
  for (const agent of state.agents.values()) if (agent.phone_number_id === phoneNumberId) return agent;
  return undefined;
}

/** The armed failure of this number, used once. */
function takeFailure(state: SimulatorState, phoneNumberId: string): Response | null {
  const failure = state.agentFailures.get(phoneNumberId);
  if (!failure) return null;
  state.agentFailures.delete(phoneNumberId);
  return graphError({ status: failure.status, code: failure.code, message: `(#${failure.code}) ${failure.message}` });
}

type Spec = Pick<SimulatorAgent, "enabled" | "settings" | "skills">;

async function readSpec(request: Request): Promise<Spec | Response> {
  const body = await readJson(request);
  if (!body.ok || !isRecord(body.value)) return invalidParameter("The request body must be a JSON object", false);
  const { enabled, settings, skills } = body.value;
  if (typeof enabled !== "boolean") return invalidParameter("enabled must be a boolean", false);
  if (!isRecord(settings)) return invalidParameter("settings must be an object", false);
  if (!Array.isArray(skills) || !skills.every(isRecord)) return invalidParameter("skills must be an array of objects", false);
  return { enabled, settings, skills };
}

async function createAgent(ctx: SimulatorContext, request: Request, phoneNumberId: string): Promise<Response> {
  if (!bearerToken(request)) return invalidToken();
  const spec = await readSpec(request);
  if (spec instanceof Response) return spec;
  const failed = takeFailure(ctx.state, phoneNumberId);
  if (failed) return failed;
  const now = ctx.now().toISOString();
  const known = agentOfNumber(ctx.state, phoneNumberId);
  if (known) {
    Object.assign(known, spec, { updated_at: now });
    return json(200, { id: known.id });
  }
  const agent: SimulatorAgent = { id: newAgentId(ctx.state), phone_number_id: phoneNumberId, ...spec, created_at: now, updated_at: now };
  ctx.state.agents.set(agent.id, agent);
  for (const id of ctx.state.agents.keys()) {
    if (ctx.state.agents.size <= MAX_AGENTS) break;
    ctx.state.agents.delete(id);
  }
  return json(200, { id: agent.id });
}

async function updateAgent(ctx: SimulatorContext, request: Request, agent: SimulatorAgent): Promise<Response> {
  if (!bearerToken(request)) return invalidToken();
  const spec = await readSpec(request);
  if (spec instanceof Response) return spec;
  const failed = takeFailure(ctx.state, agent.phone_number_id);
  if (failed) return failed;
  Object.assign(agent, spec, { updated_at: ctx.now().toISOString() });
  return json(200, { success: true });
}

/** POST /control/agents/fail-next. */
async function controlFailNext(ctx: SimulatorContext, request: Request): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok || !isRecord(body.value)) return simulatorError(400, "The request body must be a JSON object");
  const { phone_number_id: number, message, code, status } = body.value;
  if (typeof number !== "string" || number === "") return simulatorError(400, "phone_number_id is required");
  if (message !== undefined && (typeof message !== "string" || message === "")) return simulatorError(400, "message must be a non-empty string");
  if (code !== undefined && (typeof code !== "number" || !Number.isInteger(code) || code <= 0)) return simulatorError(400, "code must be a positive integer");
  if (status !== undefined && (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 599))
    return simulatorError(400, "status must be an HTTP error status (400 to 599)");
  ctx.state.agentFailures.set(number, { code: code ?? 100, message: message ?? DEFAULT_FAILURE, status: status ?? 400 });
  return json(200, { phone_number_id: number, armed: true });
}

/** The response for a business agent route, or null when `segments` (decoded, after /api/simulator) is not one. */
export function routeAgents(ctx: SimulatorContext, request: Request, method: string, segments: string[]): Answer | null {
  const [head, second, third] = segments;
  if (head === "control" && second === "agents" && third === "fail-next" && segments.length === 3) {
    return method === "POST" ? controlFailNext(ctx, request) : simulatorError(405, "Use POST for this route");
  }
  if (head !== "graph" || !second) return null;
  if (segments.length === 3 && third === "business_agents") {
    return method === "POST" ? createAgent(ctx, request, second) : null;
  }
  // Other ids on /graph/{id} (media, flows, templates) belong to the other tables.
  const agent = segments.length === 2 ? ctx.state.agents.get(second) : undefined;
  if (!agent) return null;
  if (method === "POST") return updateAgent(ctx, request, agent);
  if (method === "GET") return json(200, { ...agent });
  return null;
}
