import { describe, expect, it } from "vitest";
import { describeReason, describeReasons } from "@/components/agent/model/reasons";
import { CHANNEL_NOT_CONNECTED, CHANNEL_NOT_PLATFORM_A, CHANNEL_OF_ANOTHER_PROJECT, SANDBOX_TEST_ONLY } from "@/lib/domain/agents/eligibility";
import { PUBLISH_BLOCKERS } from "@/lib/domain/channels/publish-readiness";

/**
 * The Agent page's eligibility notes: every reason code the server can answer
 * (lib/domain/agents/eligibility.ts + the channel's publish blockers) reads as a sentence with a next
 * step, never as the raw code; the sandbox's note is information, not a blocker.
 */
const SERVER_CODES = [SANDBOX_TEST_ONLY, CHANNEL_NOT_PLATFORM_A, CHANNEL_NOT_CONNECTED, CHANNEL_OF_ANOTHER_PROJECT, ...PUBLISH_BLOCKERS];

describe("eligibility reasons as sentences", () => {
  it.each(SERVER_CODES)("%s has a sentence and a next step, not the code", (code) => {
    const text = describeReason(code);
    expect(text.code).toBe(code);
    expect(text.problem).not.toContain(code);
    expect(text.problem.length).toBeGreaterThan(20);
    expect(text.next.length).toBeGreaterThan(10);
  });

  it("SANDBOX_TEST_ONLY is an info note; every other server code blocks", () => {
    expect(describeReason(SANDBOX_TEST_ONLY).tone).toBe("info");
    for (const code of SERVER_CODES.filter((c) => c !== SANDBOX_TEST_ONLY)) expect(describeReason(code).tone).toBe("blocker");
  });

  it("points a non-PLATFORM_A channel at the sandbox and another project's number at that project", () => {
    expect(describeReason(CHANNEL_NOT_PLATFORM_A).next).toMatch(/sandbox/);
    expect(describeReason(CHANNEL_OF_ANOTHER_PROJECT).next).toMatch(/project/);
  });

  it("shows an unknown code as is, so a reason added on the server is never hidden", () => {
    const text = describeReason("SOMETHING_NEW");
    expect(text.problem).toContain("SOMETHING_NEW");
    expect(text.tone).toBe("blocker");
  });

  it("lists each reason once, blockers before the info note", () => {
    const texts = describeReasons([SANDBOX_TEST_ONLY, "BUSINESS_NOT_VERIFIED", "BUSINESS_NOT_VERIFIED", CHANNEL_NOT_PLATFORM_A]);
    expect(texts.map((t) => t.code)).toEqual(["BUSINESS_NOT_VERIFIED", CHANNEL_NOT_PLATFORM_A, SANDBOX_TEST_ONLY]);
    expect(describeReasons([])).toEqual([]);
  });
});
