import { describe, expect, it } from "vitest";
import {
  CHANNEL_ROUTING_MODES,
  PROJECT_ROUTING_MODES,
  ROUTING_SENTENCES,
  effectiveRouting,
  effectiveRoutingOfWire,
  type ChannelRoutingMode,
} from "@/lib/shared/routing-modes";

/**
 * The one rule every part of svc routes inbound by (issue 32 item 5; lib/shared/routing-modes.ts): a
 * dedicated channel's own routing_mode if set, else its project's; on the shared sandbox, the joined
 * project's. AGENT is a project value: a channel routes AGENT only by following its project.
 */
const dedicated = (routingMode: ChannelRoutingMode | null) => ({ isSandbox: false, routingMode });
const sandbox = (routingMode: ChannelRoutingMode | null) => ({ isSandbox: true, routingMode });

describe("effectiveRouting", () => {
  it("a dedicated channel's own mode overrides every project mode, AGENT included", () => {
    for (const project of PROJECT_ROUTING_MODES) {
      for (const own of CHANNEL_ROUTING_MODES) expect(effectiveRouting(project, dedicated(own)), `${project} / ${own}`).toBe(own);
    }
    expect(effectiveRouting("AGENT", dedicated("EXTERNAL"))).toBe("EXTERNAL");
  });

  it("a dedicated channel without a mode of its own follows its project, so it can route AGENT", () => {
    for (const project of PROJECT_ROUTING_MODES) expect(effectiveRouting(project, dedicated(null))).toBe(project);
  });

  it("the shared sandbox follows the joined project, whatever its stored mode", () => {
    for (const project of PROJECT_ROUTING_MODES) {
      expect(effectiveRouting(project, sandbox("EXTERNAL"))).toBe(project);
      expect(effectiveRouting(project, sandbox("NONE"))).toBe(project);
    }
  });

  it("without a channel, the project's; the wire shape gives the same answers", () => {
    expect(effectiveRouting("FLOWS", null)).toBe("FLOWS");
    expect(effectiveRoutingOfWire("AGENT", { is_sandbox: false, routing_mode: "EXTERNAL" })).toBe("EXTERNAL");
    expect(effectiveRoutingOfWire("AGENT", { is_sandbox: false, routing_mode: null })).toBe("AGENT");
    expect(effectiveRoutingOfWire("AGENT", { is_sandbox: true, routing_mode: "EXTERNAL" })).toBe("AGENT");
    expect(effectiveRoutingOfWire("EXTERNAL", undefined)).toBe("EXTERNAL");
  });
});

describe("one sentence per mode", () => {
  it("says, for every mode, what happens to the webhook, and who answers", () => {
    expect(Object.keys(ROUTING_SENTENCES).sort()).toEqual(["AGENT", "EXTERNAL", "FLOWS", "NONE"]);
    for (const sentence of Object.values(ROUTING_SENTENCES)) expect(sentence).toMatch(/webhook/);
    expect(ROUTING_SENTENCES.EXTERNAL).toMatch(/forwarded to your webhook/);
    expect(ROUTING_SENTENCES.FLOWS).toMatch(/not forwarded to your webhook/);
    expect(ROUTING_SENTENCES.NONE).toMatch(/not forwarded to your webhook and nothing answers/);
    expect(ROUTING_SENTENCES.AGENT).toMatch(/business agent answers.*no automation runs/);
  });
});
