import { describe, expect, it } from "vitest";
import { sendNextStep } from "@/components/inbox/send-failure";
import { threadTimeline } from "@/components/inbox/timeline";
import { ApiError } from "@/lib/client/api";
import type { Message } from "@/lib/client/inbox";
import type { Note } from "@/lib/client/inbox-team";
import { conversationFilterQuery, inboxSearch, readInboxLocation } from "@/lib/client/inbox-views";
import { filterSavedReplies, type SavedReply } from "@/lib/client/saved-replies";

/** The team inbox's pure parts (issue 37): views in the URL, the thread's notes among messages, the saved-reply filter, the send failure's next step. */

describe("inbox views in the URL", () => {
  it("reads every filter and falls back to the default view for unknown values", () => {
    const params = new URLSearchParams("view=unassigned&channel=ch_1&window=closing&q=ana&c=conv_1");
    expect(readInboxLocation(params)).toEqual({ view: "unassigned", channel: "ch_1", window: "closing", q: "ana", conversation: "conv_1" });
    expect(readInboxLocation(new URLSearchParams("view=nonsense&window=later"))).toMatchObject({ view: "all", window: null, channel: null, q: "" });
  });

  it("writes a location back without its defaults, so a shared link reads the same", () => {
    const location = { view: "mine" as const, channel: null, window: "closed" as const, q: " ana ", conversation: "conv_2" };
    expect(inboxSearch(location)).toBe("?view=mine&window=closed&q=ana&c=conv_2");
    expect(readInboxLocation(new URLSearchParams(inboxSearch(location)))).toEqual({ ...location, q: "ana" });
    expect(inboxSearch({ view: "all", channel: null, window: null, q: "", conversation: null })).toBe("");
    expect(inboxSearch({ view: "open", channel: null, window: null, q: "", conversation: null })).toBe("?view=open");
  });

  it("asks the API with its parameter names; counts leave the view out and 'all' is no filter", () => {
    const filters = { view: "needs_person" as const, channel: "ch_9", window: "open" as const, q: "+1 415" };
    expect(conversationFilterQuery(filters, { withView: true }).toString()).toBe("view=needs_person&channel_id=ch_9&window=open&q=%2B1+415");
    expect(conversationFilterQuery(filters, { withView: false }).has("view")).toBe(false);
    expect(conversationFilterQuery({ ...filters, view: "all" }, { withView: true }).has("view")).toBe(false);
  });
});

const message = (id: string, timestamp: string) => ({ id, timestamp }) as Message;
const note = (id: string, created_at: string) => ({ id, created_at }) as Note;

describe("the thread's timeline", () => {
  it("puts each note among the messages by its time", () => {
    const items = threadTimeline(
      [message("m1", "2026-01-01T10:00:00Z"), message("m2", "2026-01-01T10:05:00Z")],
      [note("n1", "2026-01-01T10:02:00Z"), note("n2", "2026-01-01T10:09:00Z")],
      true,
    );
    expect(items.map((item) => (item.kind === "message" ? item.message.id : item.note.id))).toEqual(["m1", "n1", "m2", "n2"]);
  });

  it("holds back a note older than the loaded messages until its place is loaded", () => {
    const items = threadTimeline([message("m5", "2026-01-02T10:00:00Z")], [note("old", "2026-01-01T09:00:00Z")], false);
    expect(items.map((item) => item.kind)).toEqual(["message"]);
    expect(threadTimeline([message("m5", "2026-01-02T10:00:00Z")], [note("old", "2026-01-01T09:00:00Z")], true)).toHaveLength(2);
  });
});

const reply = (shortcut: string, title: string) => ({ id: `srep_${shortcut}`, shortcut, title }) as SavedReply;

describe("the saved-reply picker's filter", () => {
  it("lists shortcuts that start with the typed text first, then shortcut or title matches; case-insensitive", () => {
    const replies = [reply("hours", "Opening thanks"), reply("thanks", "Thank you"), reply("refund", "Refund policy")];
    expect(filterSavedReplies(replies, "THA").map((r) => r.shortcut)).toEqual(["thanks", "hours"]);
    expect(filterSavedReplies(replies, "policy").map((r) => r.shortcut)).toEqual(["refund"]);
    expect(filterSavedReplies(replies, "")).toHaveLength(3);
    expect(filterSavedReplies(replies, "zzz")).toEqual([]);
  });
});

describe("a failed send's next step", () => {
  it("says what to do for a closed window, a network failure and an unknown 4xx", () => {
    const closed = new ApiError({ status: 409, code: "outside_messaging_window", message: "Outside the window." });
    expect(sendNextStep(closed)).toMatch(/template/);
    expect(sendNextStep(new ApiError({ status: 0, code: "network_error", message: "offline" }))).toMatch(/connection/);
    expect(sendNextStep(new ApiError({ status: 422, code: "something_new", message: "no" }))).toMatch(/Change the message/);
  });
});
