import { Redis } from "ioredis";
import { Fanout } from "./fanout";
import { assertPayloadSize, type BusPort } from "./types";

/**
 * Redis pub/sub. Publishes go through the runtime's own client (the limiter's: fail fast, no offline
 * queue, so a Redis outage is an error at once, never a wait); a subscribing connection cannot run other
 * commands, so subscriptions get a dedicated one, opened with the first subscriber. It queues while
 * Redis is away and ioredis subscribes again after a reconnect (autoResubscribe); what is published
 * meanwhile is not seen. Channels carry the prefix, so test apps sharing one Redis never cross.
 */
export function redisBus(options: { publisher: Redis; url: string; prefix: string }): BusPort {
  const { publisher, url, prefix } = options;
  const full = (channel: string) => `${prefix}:bus:${channel}`;
  const byFullName = new Map<string, string>();
  let subscriber: Redis | null = null;

  function connection(): Redis {
    if (subscriber) return subscriber;
    const client = new Redis(url, {
      lazyConnect: false,
      connectTimeout: 1000,
      maxRetriesPerRequest: null,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    // Errors show as a failed subscribe; without a listener ioredis would log every reconnect attempt.
    client.on("error", () => {});
    client.on("message", (channel: string, payload: string) => {
      const name = byFullName.get(channel);
      if (name !== undefined) fanout.deliver(name, payload);
    });
    subscriber = client;
    return client;
  }

  const fanout = new Fanout(async (channel) => {
    const name = full(channel);
    byFullName.set(name, channel);
    const client = connection();
    try {
      await client.subscribe(name);
    } catch (error) {
      byFullName.delete(name);
      throw error;
    }
    return async () => {
      byFullName.delete(name);
      // Not while disconnected (it would wait in the offline queue); a resubscribed channel nobody follows is ignored on arrival.
      if (client.status === "ready") await client.unsubscribe(name);
    };
  });

  return {
    backend: "redis",
    async publish(channel, payload) {
      assertPayloadSize(payload);
      await publisher.publish(full(channel), payload);
    },
    subscribe: (channel, handler) => fanout.subscribe(channel, handler),
    async close() {
      // The connection first: the subscriptions end with it, and nothing waits on a Redis that is away.
      subscriber?.disconnect();
      subscriber = null;
      await fanout.close();
    },
  };
}
