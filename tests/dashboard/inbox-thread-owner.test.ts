import { describe, expect, it } from "vitest";
import { THREAD_OWNER_LABELS, threadActions, threadOwnerBadge } from "@/components/inbox/thread-owner";
import { ConversationThreadOwner } from "@/lib/api/schemas/conversations";

/**
 * The inbox's thread owner (components/inbox/thread-owner.ts): the badge for each owner on the wire,
 * and which of Take over / Give back to agent a thread offers.
 */
const CHANNEL = "ch_1";
const active = { id: "ba_1", status: "ACTIVE" as const, channel_id: CHANNEL };

describe("the thread owner badge", () => {
  it("names every owner the API sends, and nothing outside AGENT routing", () => {
    expect(Object.keys(THREAD_OWNER_LABELS).sort()).toEqual([...ConversationThreadOwner.unwrap().unwrap().options].sort());
    expect(threadOwnerBadge("PROVIDER_AGENT")).toMatchObject({ label: "Agent", owner: "PROVIDER_AGENT" });
    expect(threadOwnerBadge("SERVICE")).toMatchObject({ label: "Your service" });
    expect(threadOwnerBadge("BUSINESS_INBOX")).toMatchObject({ label: "Inbox", tone: "warning" });
    expect(threadOwnerBadge(null)).toBeNull();
    expect(threadOwnerBadge(undefined)).toBeNull();
  });
});

describe("the thread's buttons", () => {
  const base = { channelId: CHANNEL, agent: active, canWrite: true };
  it.each([
    ["the agent owns it: take over only", { ...base, owner: "PROVIDER_AGENT" as const }, { takeOver: true, giveBackTo: null }],
    ["the inbox owns it: give back only", { ...base, owner: "BUSINESS_INBOX" as const }, { takeOver: false, giveBackTo: "ba_1" }],
    ["your service owns it: both", { ...base, owner: "SERVICE" as const }, { takeOver: true, giveBackTo: "ba_1" }],
    ["no agent on the channel", { ...base, agent: null, owner: "BUSINESS_INBOX" as const }, { takeOver: false, giveBackTo: null }],
    [
      "the agent is not ACTIVE",
      { ...base, agent: { ...active, status: "DISABLED" as const }, owner: "BUSINESS_INBOX" as const },
      { takeOver: false, giveBackTo: null },
    ],
    ["another channel's agent", { ...base, agent: { ...active, channel_id: "ch_2" }, owner: "SERVICE" as const }, { takeOver: true, giveBackTo: null }],
    ["a viewer", { ...base, canWrite: false, owner: "SERVICE" as const }, { takeOver: false, giveBackTo: null }],
    ["not AGENT routing (null owner)", { ...base, owner: null }, { takeOver: false, giveBackTo: null }],
    ["no channel to act on", { ...base, channelId: null, owner: "SERVICE" as const }, { takeOver: false, giveBackTo: null }],
  ])("%s", (_label, input, expected) => {
    expect(threadActions(input)).toEqual(expected);
  });
});
