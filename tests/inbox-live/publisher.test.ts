import { describe, expect, it } from "vitest";
import { memoryBus } from "@/lib/ports/bus/memory";
import type { BusPort } from "@/lib/ports/bus";
import { createMetrics } from "@/lib/ports/metrics";
import { InboxPublisher } from "@/lib/domain/inbox-live/publisher";
import { chunkBatches, decodeBatch, encodeBatch, inboxChannel, type InboxEvent } from "@/lib/domain/inbox-live/events";
import { subscribeInboxEvents } from "@/lib/domain/inbox-live";

/**
 * The process's inbox publisher: events gather (deduplicated) and go out as one publish per project
 * and payload chunk, under NOTIFY's limit; failures are counted, never thrown at the writer.
 */
function counted(text: string, outcome: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`svc_inbox_events_total{outcome="${outcome}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

describe("InboxPublisher", () => {
  it("sends a project's gathered events as one payload, duplicates once, and counts them", async () => {
    const bus = memoryBus();
    const metrics = createMetrics();
    const payloads: string[] = [];
    await bus.subscribe(inboxChannel("proj_a"), (payload) => payloads.push(payload));
    const other: InboxEvent[] = [];
    await subscribeInboxEvents(bus, "proj_b", (event) => other.push(event));
    const publisher = new InboxPublisher(bus, metrics);
    publisher.publish("proj_a", { type: "message.created", conversation_id: "conv_1", id: "msg_1" });
    publisher.publish("proj_a", { type: "message.created", conversation_id: "conv_1", id: "msg_1" });
    publisher.publish("proj_a", { type: "message.updated", conversation_id: "conv_1", id: "msg_1" });
    publisher.publish("proj_b", { type: "conversation.updated", conversation_id: "conv_9" });
    await publisher.drain();
    await new Promise((resolve) => setImmediate(resolve));
    expect(payloads).toHaveLength(1);
    expect(decodeBatch(payloads[0]!)).toEqual([
      { type: "message.created", conversation_id: "conv_1", id: "msg_1" },
      { type: "message.updated", conversation_id: "conv_1", id: "msg_1" },
    ]);
    expect(other).toEqual([{ type: "conversation.updated", conversation_id: "conv_9" }]);
    expect(counted((await metrics.render()).body, "published")).toBe(3);
  });

  it("counts what the bus refuses, and never throws at the writer", async () => {
    const failing: BusPort = {
      backend: "memory",
      publish: () => Promise.reject(new Error("down")),
      subscribe: () => Promise.reject(new Error("down")),
      close: async () => {},
    };
    const metrics = createMetrics();
    const publisher = new InboxPublisher(failing, metrics);
    expect(() => publisher.publish("proj_a", { type: "message.created", conversation_id: "conv_1", id: "msg_1" })).not.toThrow();
    await publisher.drain();
    expect(counted((await metrics.render()).body, "failed")).toBe(1);
  });
});

describe("chunkBatches", () => {
  it("splits many events into payloads under the budget, in order, none lost", () => {
    const events: InboxEvent[] = Array.from({ length: 500 }, (_, i) => ({
      type: "message.updated",
      conversation_id: `conv_01${String(i).padStart(24, "0")}`,
      id: `msg_01${String(i).padStart(24, "0")}`,
    }));
    const chunks = chunkBatches(events, 7000);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(Buffer.byteLength(chunk.payload)).toBeLessThanOrEqual(7000);
    expect(chunks.flatMap((chunk) => decodeBatch(chunk.payload))).toEqual(events);
    expect(chunks.reduce((n, chunk) => n + chunk.count, 0)).toBe(500);
  });

  it("decodes what it encodes and skips what is not an inbox event", () => {
    const events: InboxEvent[] = [{ type: "note.created", conversation_id: "conv_1", id: "note_1" }];
    expect(decodeBatch(encodeBatch(events))).toEqual(events);
    expect(decodeBatch('[{"type":"nope","conversation_id":"c"},{"type":"message.created"},7]')).toEqual([]);
    expect(decodeBatch("{")).toEqual([]);
  });
});
