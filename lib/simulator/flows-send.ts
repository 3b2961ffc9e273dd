import { graphError, isRecord } from "@/lib/simulator/http";
import type { SimulatorFlow, SimulatorState } from "@/lib/simulator/state";

/**
 * The provider's checks of an interactive Flow message against the flow itself (its body was
 * validated already, validate-a.ts): the flow must exist; a DRAFT flow is sendable only with
 * mode "draft"; DEPRECATED is never sendable; BLOCKED is refused (132068); THROTTLED allows 10
 * messages an hour (132069 beyond). Call it last, right before the message is accepted: an admitted
 * message counts against a throttled flow's hour.
 */
export const THROTTLED_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;

function parametersOf(body: Record<string, unknown>): Record<string, unknown> | null {
  if (body.type !== "interactive" || !isRecord(body.interactive) || body.interactive.type !== "flow") return null;
  const action = body.interactive.action;
  return isRecord(action) && isRecord(action.parameters) ? action.parameters : null;
}

function lookup(state: SimulatorState, parameters: Record<string, unknown>): SimulatorFlow | undefined {
  if (typeof parameters.flow_id === "string") return state.flows.get(parameters.flow_id);
  for (const flow of state.flows.values()) if (flow.name === parameters.flow_name) return flow;
  return undefined;
}

function notSendable(details: string): Response {
  return graphError({ status: 400, code: 131009, message: "(#131009) Parameter value is not valid", details, whatsapp: true });
}

/** The refusal for this Flow message, or null (and, for a throttled flow, the send counted). */
export function admitFlowMessage(state: SimulatorState, body: Record<string, unknown>, at: Date): Response | null {
  const parameters = parametersOf(body);
  if (!parameters) return null;
  const flow = lookup(state, parameters);
  const named = typeof parameters.flow_id === "string" ? `ID ${parameters.flow_id}` : `name '${String(parameters.flow_name)}'`;
  if (!flow) return notSendable(`Flow with ${named} does not exist.`);
  const draftMode = parameters.mode === "draft";
  switch (flow.status) {
    case "DRAFT":
      return draftMode ? null : notSendable(`Flow ${flow.id} is in DRAFT: publish it, or send it with mode 'draft' to test it.`);
    case "DEPRECATED":
      return notSendable(`Flow ${flow.id} is DEPRECATED and can no longer be sent.`);
    case "BLOCKED":
      return graphError({ status: 400, code: 132068, message: "(#132068) Flow is in blocked state", details: `Flow ${flow.id} is BLOCKED.`, whatsapp: true });
    case "THROTTLED": {
      const recent = (flow.recent_sends ?? []).filter((sentAt) => at.getTime() - sentAt < HOUR_MS);
      if (recent.length >= THROTTLED_PER_HOUR) {
        flow.recent_sends = recent;
        return graphError({
          status: 400,
          code: 132069,
          message: "(#132069) Flow is in throttled state",
          details: `Flow ${flow.id} is THROTTLED and ${THROTTLED_PER_HOUR} messages using it were already sent in the last hour.`,
          whatsapp: true,
        });
      }
      flow.recent_sends = [...recent, at.getTime()];
      return null;
    }
    case "PUBLISHED":
      return null;
  }
}
