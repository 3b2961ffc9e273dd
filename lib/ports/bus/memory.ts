import { EventEmitter } from "node:events";
import { Fanout } from "./fanout";
import { assertPayloadSize, type BusPort } from "./types";

/**
 * The embedded database (PGlite) serves one process (its data folder is locked to it), so its bus is
 * an emitter in that process. Delivery is on a later turn of the event loop, as over a network, so a
 * publisher never runs the subscribers' code inside its own call.
 */
export function memoryBus(): BusPort {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const fanout = new Fanout(async (channel) => {
    const listener = (payload: string) => fanout.deliver(channel, payload);
    emitter.on(channel, listener);
    return async () => void emitter.off(channel, listener);
  });
  return {
    backend: "memory",
    async publish(channel, payload) {
      assertPayloadSize(payload);
      setImmediate(() => emitter.emit(channel, payload));
    },
    subscribe: (channel, handler) => fanout.subscribe(channel, handler),
    close: () => fanout.close(),
  };
}
