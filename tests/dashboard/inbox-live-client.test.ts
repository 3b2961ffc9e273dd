import { describe, expect, it } from "vitest";
import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { addInboxInvalidator, inboxStreamUrl, invalidateForInboxEvents, parseInboxEvent, retryDelayMs, type InboxEvent } from "@/lib/client/inbox-live";
import { inboxKeys } from "@/lib/client/inbox";
import { projectQueryKey } from "@/lib/client/query";
import { markInboxFollowed, pollUnlessFollowed } from "@/lib/client/inbox-poll";

/** The browser side of the inbox's live updates, without a browser: what an event makes stale, how data lines are read, the retry pace. */

const P = "proj_a";

function clientWith(keys: QueryKey[]): QueryClient {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, { seeded: true });
  return client;
}

function stale(client: QueryClient, key: QueryKey): boolean {
  return client.getQueryState(key)?.isInvalidated ?? false;
}

describe("invalidateForInboxEvents", () => {
  const keys = {
    list: inboxKeys.conversations(P, { view: "all", channel: null, window: null, q: "" }),
    search: inboxKeys.conversations(P, { view: "unassigned", channel: null, window: "open", q: "ana" }),
    conversation: inboxKeys.conversation(P, "conv_1"),
    messages: inboxKeys.messages(P, "conv_1"),
    preview: [...inboxKeys.preview(P, "conv_1"), "2026-06-18T12:00:00.000Z"],
    otherMessages: inboxKeys.messages(P, "conv_2"),
    otherConversation: inboxKeys.conversation(P, "conv_2"),
    notes: projectQueryKey(P, "inbox", "notes", "conv_1"),
    otherNotes: projectQueryKey(P, "inbox", "notes", "conv_2"),
    counts: projectQueryKey(P, "inbox", "conversation-counts"),
    channels: inboxKeys.channels(P),
    otherProject: inboxKeys.messages("proj_b", "conv_1"),
  };

  it("a new message makes the lists, its conversation, messages, preview, notes and counts stale; nothing of other conversations or projects", () => {
    const client = clientWith(Object.values(keys));
    invalidateForInboxEvents(client, P, [{ type: "message.created", conversation_id: "conv_1", id: "msg_1" }]);
    for (const key of [keys.list, keys.search, keys.conversation, keys.messages, keys.preview, keys.notes, keys.counts])
      expect(stale(client, key), JSON.stringify(key)).toBe(true);
    for (const key of [keys.otherMessages, keys.otherConversation, keys.otherNotes, keys.channels, keys.otherProject])
      expect(stale(client, key), JSON.stringify(key)).toBe(false);
  });

  it("a conversation change leaves its messages alone", () => {
    const client = clientWith(Object.values(keys));
    invalidateForInboxEvents(client, P, [{ type: "conversation.updated", conversation_id: "conv_1" }]);
    expect(stale(client, keys.conversation)).toBe(true);
    expect(stale(client, keys.list)).toBe(true);
    expect(stale(client, keys.messages)).toBe(false);
  });

  it("runs what the UI added, with the batch, until it is removed", () => {
    const client = clientWith([]);
    const seen: InboxEvent[][] = [];
    const remove = addInboxInvalidator((_client, projectId, events) => {
      expect(projectId).toBe(P);
      seen.push([...events]);
    });
    const batch: InboxEvent[] = [
      { type: "note.created", conversation_id: "conv_1", id: "note_1" },
      { type: "message.updated", conversation_id: "conv_2", id: "msg_2" },
    ];
    invalidateForInboxEvents(client, P, batch);
    remove();
    invalidateForInboxEvents(client, P, batch);
    expect(seen).toEqual([batch]);
  });
});

describe("parseInboxEvent", () => {
  it("reads the contract's data lines and ignores anything else", () => {
    expect(parseInboxEvent('{"type":"message.created","conversation_id":"conv_1","id":"msg_1"}')).toEqual({
      type: "message.created",
      conversation_id: "conv_1",
      id: "msg_1",
    });
    expect(parseInboxEvent('{"type":"conversation.updated","conversation_id":"conv_1"}')).toEqual({ type: "conversation.updated", conversation_id: "conv_1" });
    expect(parseInboxEvent('{"type":"something.new","conversation_id":"conv_1"}')).toBeNull();
    expect(parseInboxEvent('{"type":"message.created"}')).toBeNull();
    expect(parseInboxEvent("not json")).toBeNull();
  });
});

describe("the stream's retries", () => {
  it("double from about a second to at most about thirty", () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => retryDelayMs(attempt, middle))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(retryDelayMs(0, () => 0)).toBe(800);
    expect(retryDelayMs(0, () => 1)).toBe(1200);
  });

  it("go to the project's stream", () => {
    expect(inboxStreamUrl("proj_a")).toBe("/api/dashboard/projects/proj_a/inbox/stream");
  });
});

describe("the inbox queries' own polling", () => {
  it("stops while useInboxLive follows the project (it refreshes them itself), and resumes once nothing does", () => {
    const poll = pollUnlessFollowed("proj_poll", 4_000);
    const other = pollUnlessFollowed("proj_other", 4_000);
    expect(poll()).toBe(4_000);
    markInboxFollowed("proj_poll", true);
    markInboxFollowed("proj_poll", true); // a second inbox in the same tab
    expect(poll()).toBe(false);
    expect(other()).toBe(4_000);
    markInboxFollowed("proj_poll", false);
    expect(poll()).toBe(false);
    markInboxFollowed("proj_poll", false);
    expect(poll()).toBe(4_000);
  });
});
