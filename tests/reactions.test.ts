import { describe, expect, it } from "vitest";
import type { SystemCtx } from "@/lib/domain/context";
import { installReactions } from "@/lib/domain/reactions";
import { inboundMessageClaims, inboundMessageJobs, inboundMessageStored } from "@/lib/domain/ingest/reactions";
import { messageStatusMoved, type StatusMoved } from "@/lib/domain/messages/status-moved";
import { outboundSendClaims } from "@/lib/domain/messages/send-claims";
import { templateStatusMoved } from "@/lib/domain/templates/status-moved";
import { ClaimList, JobAskList, ReactionList } from "@/lib/domain/shared/reactions";

/**
 * The core's reaction lists (ARCHITECTURE.md, "Reactions"): what the composition root installs, in
 * which order, and that a list nobody installed fails loudly instead of silently skipping a feature.
 * What each reaction does is tested with its feature (flows, automations, agents, broadcasts, ...).
 */
const ctx = {} as SystemCtx;

describe("reaction lists", () => {
  it("a list never installed refuses to run, naming how to install it", async () => {
    const list = new ReactionList<number>(`test list ${Math.random()}`);
    await expect(list.run(ctx, 1)).rejects.toThrow(/installReactions\(\)/);
  });

  it("runs every reaction in install order; a claim list stops at the first claim", async () => {
    const seen: string[] = [];
    const list = new ReactionList<number>(`order ${Math.random()}`);
    list.install([
      { name: "a", react: async (_ctx, n) => void seen.push(`a${n}`) },
      { name: "b", react: async (_ctx, n) => void seen.push(`b${n}`) },
    ]);
    await list.run(ctx, 7);
    expect(seen).toEqual(["a7", "b7"]);

    const claims = new ClaimList<number, string>(`claims ${Math.random()}`);
    claims.install([
      { name: "never", claim: async () => null },
      { name: "first", claim: async (_ctx, n) => `first ${n}` },
      { name: "too late", claim: async () => "too late" },
    ]);
    expect(await claims.first(ctx, 3)).toBe("first 3");
  });

  it("a job list answers every feature's job in install order, leaving out those that ask for none", () => {
    const jobs = new JobAskList<string>(`jobs ${Math.random()}`);
    expect(() => jobs.jobs("m")).toThrow(/installReactions\(\)/);
    jobs.install([
      { name: "none", job: () => null },
      { name: "evaluate", job: (messageId) => ({ name: "automations.evaluate", data: { messageId } }) },
      { name: "respond", job: (messageId) => ({ name: "agents.respond", data: { messageId } }) },
    ]);
    expect(jobs.jobs("msg_1")).toEqual([
      { name: "automations.evaluate", data: { messageId: "msg_1" } },
      { name: "agents.respond", data: { messageId: "msg_1" } },
    ]);
  });

  it("a list is concerned with an input when one reaction is, or when one cannot say", () => {
    const list = new ReactionList<number>(`concerns ${Math.random()}`);
    list.install([
      { name: "evens", react: async () => {}, concerns: (n) => n % 2 === 0 },
      { name: "tens", react: async () => {}, concerns: (n) => n % 10 === 0 },
    ]);
    expect(list.concerns(3)).toBe(false);
    expect(list.concerns(4)).toBe(true);
    list.install([
      { name: "never", react: async () => {}, concerns: () => false },
      { name: "unsaid", react: async () => {} },
    ]);
    expect(list.concerns(3)).toBe(true);
  });

  it("a status move concerns the broadcasts only for a broadcast's message", () => {
    installReactions();
    const moved = (broadcastId: string | null) => [
      { message: { broadcastId } as StatusMoved["message"], status: "delivered" as const, at: new Date(), failure: null },
    ];
    expect(messageStatusMoved.concerns(moved(null))).toBe(false);
    expect(messageStatusMoved.concerns(moved("brd_1"))).toBe(true);
    expect(messageStatusMoved.concerns([...moved(null), ...moved("brd_2")])).toBe(true);
  });

  it("the composition root installs each feature where the core expects it, in order", () => {
    installReactions();
    expect(inboundMessageClaims.names()).toEqual(["registration-intents: a registration link's token"]);
    expect(inboundMessageStored.names().map((name) => name.split(":")[0])).toEqual(["flows", "agents", "broadcasts"]);
    expect(inboundMessageJobs.names().map((name) => name.split(":")[0])).toEqual(["automations"]);
    expect(outboundSendClaims.names().map((name) => name.split(":")[0])).toEqual(["templates"]);
    expect(messageStatusMoved.names().map((name) => name.split(":")[0])).toEqual(["broadcasts"]);
    expect(templateStatusMoved.names().map((name) => name.split(":")[0])).toEqual(["broadcasts"]);
  });
});
