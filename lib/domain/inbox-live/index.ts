import type { BusPort, Unsubscribe } from "@/lib/ports/bus";
import type { MetricsPort } from "@/lib/ports/metrics";
import { decodeBatch, inboxChannel, type InboxEvent } from "./events";
import { InboxPublisher } from "./publisher";

export type { InboxEvent } from "./events";

/**
 * Live updates of the dashboard inbox (README "Inbox: live updates"). Writers call publishInboxEvent
 * once their change has committed; the dashboard's stream (lib/dashboard/routes/inbox-stream.ts)
 * subscribes per project. Between processes the events travel over the bus port (lib/ports/bus), one
 * channel per project.
 *
 * publishInboxEvent takes no ctx (the contract's signature, so every writer can call it after its
 * transaction with nothing else at hand): the composition root installs the process's publisher over
 * its bus (installInboxLive, lib/server/runtime.ts), as it installs the reaction lists. On globalThis,
 * as those are: Next may evaluate this module in more than one bundle.
 */
const holder = globalThis as typeof globalThis & { __svcInboxPublishers?: InboxPublisher[] };
const installed = (holder.__svcInboxPublishers ??= []);

/**
 * Installs this process's publisher over `bus`; the returned function flushes it and uninstalls it (a
 * runtime's close). The newest runtime's publisher serves; closing it gives the turn back to the one
 * before (a test file with two apps open).
 */
export function installInboxLive(bus: BusPort, metrics: MetricsPort | null): () => Promise<void> {
  const publisher = new InboxPublisher(bus, metrics);
  installed.push(publisher);
  return async () => {
    const at = installed.indexOf(publisher);
    if (at !== -1) installed.splice(at, 1);
    await publisher.drain();
  };
}

/**
 * Announces a change to the project's open inbox streams. Call it AFTER the change committed: a stream
 * refetches at once. It costs a Map insert: no database round trip, no await, and it never throws (with
 * no runtime installed, a script or a test without one, it does nothing).
 */
export function publishInboxEvent(projectId: string, event: InboxEvent): void {
  try {
    installed.at(-1)?.publish(projectId, event);
  } catch (error) {
    // Nothing may fail a write that has already committed.
    console.error("[inbox-live] publish failed:", error);
  }
}

/** publishInboxEvent for each of many changes of one project (a status run, a broadcast batch). */
export function publishInboxEvents(projectId: string, events: Iterable<InboxEvent>): void {
  for (const event of events) publishInboxEvent(projectId, event);
}

/**
 * Follows one project's events through `bus` (the runtime's, ctx.ports.bus): resolves once they flow,
 * with the function that stops them. The bus listens to the project's channel once per process,
 * however many streams follow it.
 */
export function subscribeInboxEvents(bus: BusPort, projectId: string, handler: (event: InboxEvent) => void): Promise<Unsubscribe> {
  return bus.subscribe(inboxChannel(projectId), (payload) => {
    for (const event of decodeBatch(payload)) handler(event);
  });
}
