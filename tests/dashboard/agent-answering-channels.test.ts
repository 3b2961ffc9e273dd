import { describe, expect, it } from "vitest";
import { answeringChannels } from "@/components/agent/model/answering-channels";
import type { Channel } from "@/lib/client/channels";

/**
 * The Agent page's "where the agent answers" (issue 32 item 5): by channel name, the channels whose
 * effective routing is AGENT and whose agent is ACTIVE; the others with the reason and the next step.
 */
const channel = (over: Partial<Channel>): Channel => ({
  object: "channel",
  id: "ch_x",
  channel_id: "ch_x",
  platform: "PLATFORM_A",
  status: "connected",
  display_name: null,
  phone_number: null,
  routing_mode: null,
  number_mode: "dedicated",
  is_sandbox: false,
  routing_warning: null,
  publish_readiness: null,
  ...over,
});
const sandbox = channel({ id: "ch_sandbox", display_name: "svc Sandbox", routing_mode: "EXTERNAL", number_mode: "sandbox", is_sandbox: true });
const own = channel({ id: "ch_own", display_name: "Webhook line", routing_mode: "EXTERNAL" });
const follows = channel({ id: "ch_follow", display_name: "Agent line" });
const elsewhere = channel({ id: "ch_other", display_name: "Another project's line" });

describe("answeringChannels", () => {
  it("answers where the channel routes AGENT (following the project) and its agent is ACTIVE; a channel's own routing overrides the project's", () => {
    const agents = [
      { channel_id: "ch_sandbox", status: "ACTIVE" as const },
      { channel_id: "ch_follow", status: "ACTIVE" as const },
      { channel_id: "ch_own", status: "ACTIVE" as const },
    ];
    const reach = answeringChannels("AGENT", "ch_own", [sandbox, own, follows, elsewhere], agents);
    expect(reach.filter((r) => r.answers).map((r) => r.name)).toEqual(["svc Sandbox (shared sandbox)", "Agent line"]);
    expect(reach.find((r) => r.channelId === "ch_own")).toMatchObject({
      answers: false,
      mode: "EXTERNAL",
      why: expect.stringContaining("its own routing, which overrides"),
    });
    // A channel with no agent of this project, not its number: not this page's to judge.
    expect(reach.map((r) => r.channelId)).not.toContain("ch_other");
  });

  it("says why not, with the next step: the project's routing, no agent yet, or an agent that is not ACTIVE", () => {
    const flows = answeringChannels("FLOWS", null, [sandbox], [{ channel_id: "ch_sandbox", status: "ACTIVE" }]);
    expect(flows[0]).toMatchObject({ answers: false, why: expect.stringContaining("switch the project to Agent on the Overview") });
    expect(answeringChannels("AGENT", null, [sandbox], [])[0]!.why).toMatch(/no agent yet.*enable one/);
    expect(answeringChannels("AGENT", null, [sandbox], [{ channel_id: "ch_sandbox", status: "DISABLED" }])[0]!.why).toMatch(/its agent is DISABLED/);
  });
});
