import type { SimulatorContext } from "@/lib/simulator/context";
import type { Envelope } from "@/lib/simulator/envelopes";
import type { SimulatorFlow } from "@/lib/simulator/state";
import { postSigned, postWithRetries, type PostOutcome } from "@/lib/simulator/delivery";

/**
 * The provider's `flows` webhook field: one status change of one flow, to our PLATFORM_A webhook
 * endpoint, signed like every other provider webhook (X-Hub-Signature-256 with the app secret).
 *   {object:"whatsapp_business_account", entry:[{id:<business account id>, time:<unix seconds>,
 *     changes:[{field:"flows", value:{event:"FLOW_STATUS_CHANGE", message, flow_id, old_status, new_status}}]}]}
 */
export type FlowStatus = SimulatorFlow["status"];

function flowStatusEnvelope(flow: SimulatorFlow, oldStatus: FlowStatus, newStatus: FlowStatus, at: Date): Envelope {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: flow.business_account_id,
        time: Math.floor(at.getTime() / 1000),
        changes: [
          {
            value: {
              event: "FLOW_STATUS_CHANGE",
              message: `Flow ${flow.name} changed status from ${oldStatus} to ${newStatus}`,
              flow_id: flow.id,
              old_status: oldStatus,
              new_status: newStatus,
            },
            field: "flows",
          },
        ],
      },
    ],
  };
}

/** Sets the flow's status and announces it after the Graph answer, retried like status callbacks. Never throws. */
export function changeFlowStatusLater(ctx: SimulatorContext, flow: SimulatorFlow, newStatus: FlowStatus): void {
  const oldStatus = flow.status;
  flow.status = newStatus;
  const payload = flowStatusEnvelope(flow, oldStatus, newStatus, ctx.now());
  postWithRetries(ctx, "PLATFORM_A", payload, "flow status").catch((error: unknown) => ctx.log("flow status webhook failed", error));
}

/** Sets the flow's status and delivers the webhook once, answering with our endpoint's outcome (control routes). */
export async function changeFlowStatusNow(ctx: SimulatorContext, flow: SimulatorFlow, newStatus: FlowStatus): Promise<PostOutcome> {
  const oldStatus = flow.status;
  flow.status = newStatus;
  return postSigned(ctx, "PLATFORM_A", flowStatusEnvelope(flow, oldStatus, newStatus, ctx.now()));
}
