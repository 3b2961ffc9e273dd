import { emitEvent } from "@/lib/domain/events";
import { scheduleDelivery } from "@/lib/domain/webhooks/enqueue";
import type { TestApp } from "./app";

/** A message.status event held from the webhook, then given its pending delivery (and job) as a retry would: the delivery's id. */
export async function pendingStatusDelivery(app: TestApp, projectId: string, messageId: string): Promise<string> {
  return app.db.transaction(async (tx) => {
    const eventId = (await emitEvent(
      { ...app.systemCtx(), db: tx },
      { project: { id: projectId }, type: "message.status", payload: { message_id: messageId, status: "delivered" }, at: app.clock.now(), defer: true },
    ))!;
    return (await scheduleDelivery(tx, app.runtime.ports.queue, { id: eventId, projectId, type: "message.status" }, app.clock.now()))!;
  });
}
