import { describe, expect, it } from "vitest";
import { publishLocation, sendFromOptions, sendRefusalText } from "@/components/flows/model/flow-channels";
import type { FlowChannel, FlowChannels } from "@/lib/client/flows";

/**
 * What the flow page says about where a flow is published and where "Send to a sandbox tester" sends
 * from (components/flows/model/flow-channels.ts, over GET /flows/{id}/channels): channel names, never
 * an id alone, and the next step.
 */
const own: FlowChannel = {
  channel_id: "ch_own",
  display_name: "Own line",
  phone_number: "+14155550100",
  is_sandbox: false,
  business_account_id: "waba_own",
  primary: true,
};
const sandbox: FlowChannel = {
  channel_id: "ch_sandbox",
  display_name: "svc Sandbox",
  phone_number: "+15550000000",
  is_sandbox: true,
  business_account_id: "sandbox-waba",
  primary: false,
};
const channels = (over: Partial<FlowChannels>): FlowChannels => ({
  object: "flow_channels",
  flow_id: "flow_1",
  published_version: 1,
  publish_target: own,
  senders: [own],
  ...over,
});
const published = { status: "PUBLISHED" as const, meta_status: "PUBLISHED" as const };

describe("where the flow is published", () => {
  it("names the own number it is published on, the business account beside it", () => {
    expect(publishLocation(published, channels({}))).toEqual({ headline: "Published on Own line (+14155550100).", account: "waba_own", notes: [] });
  });

  it("before the first publish, says where Publish will put it", () => {
    const draft = { status: "DRAFT" as const, meta_status: null };
    expect(publishLocation(draft, channels({ published_version: null, senders: [] })).headline).toBe(
      "Publish puts it on Own line (+14155550100), your project's own number.",
    );
    expect(publishLocation(draft, channels({ published_version: null, senders: [], publish_target: { ...sandbox, primary: true } })).headline).toBe(
      "Publish puts it on the shared sandbox, where your sandbox testers joined.",
    );
  });

  it("lists the sandbox it was also published on, and a next publish that goes to another channel", () => {
    const where = publishLocation(published, channels({ senders: [{ ...sandbox, primary: true }, own].map((c) => ({ ...c, primary: c.is_sandbox })) }));
    expect(where.headline).toBe("Published on the shared sandbox.");
    expect(where.notes).toEqual([
      "Also published on Own line (+14155550100), version 1.",
      "Your next publish goes to Own line (+14155550100), the project's channel now.",
    ]);
  });
});

describe("sending to a sandbox tester", () => {
  it("offers the shared sandbox first, to be published there first when it cannot send the version yet", () => {
    expect(sendFromOptions(channels({}))).toEqual([
      { channel: expect.objectContaining({ channel_id: "ch_sandbox", is_sandbox: true }), needsPublish: true },
      { channel: own, needsPublish: false },
    ]);
    expect(sendFromOptions(channels({ senders: [own, sandbox] }))).toEqual([
      { channel: sandbox, needsPublish: false },
      { channel: own, needsPublish: false },
    ]);
  });

  it("a closed 24-hour window on the own number says how to reach the tester; other refusals are the API's words", () => {
    const closed = { code: "outside_messaging_window", message: "The customer has never written on this channel." };
    expect(sendRefusalText(closed, own, "Ana · +15551230001")).toBe(
      "Ana · +15551230001 has not written to Own line (+14155550100) in the last 24 hours, so Own line cannot send them a flow. " +
        "Send it from the shared sandbox, where testers joined, or write to Own line as them from the Sandbox phone first.",
    );
    expect(sendRefusalText({ code: "conflict", message: "Something else. Do this." }, own, "Ana")).toBe("Something else. Do this.");
  });
});
