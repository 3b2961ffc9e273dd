import { describe, expect, it } from "vitest";
import { duration, kindOf, orList, preview, runPosition, stepSummary, triggerSummary, STEP_KIND_ORDER } from "@/components/automations/model/summaries";
import { routingNotice, type RoutingChannel } from "@/components/automations/model/routing-notice";
import { STEP_KINDS, stepSchema, triggerSchema } from "@/lib/domain/automations/definition";

/**
 * The Automations page's words: a trigger as a sentence, each step as one line, where a run stands,
 * and whether routing lets the automations fire. Fixtures go through the definition's own zod schemas,
 * so a summary is always of a shape config-as-code accepts.
 */

const step = (value: unknown) => stepSchema.parse(value);
const trigger = (value: unknown) => triggerSchema.parse(value);

describe("the trigger, as a sentence", () => {
  it("names the match mode in words and lists the keywords", () => {
    expect(triggerSummary(trigger({ type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["hola", "hi"] }))).toBe(
      "When a message contains the word 'hola' or 'hi'",
    );
    expect(triggerSummary(trigger({ type: "KEYWORD", match_mode: "EXACT", keywords: ["menu"] }))).toBe("When a message is exactly 'menu'");
    expect(triggerSummary(trigger({ type: "KEYWORD", match_mode: "CONTAINS", keywords: ["a", "b", "c"] }))).toBe("When a message contains 'a', 'b' or 'c'");
    // Without match_mode the engine matches whole words.
    expect(triggerSummary(trigger({ type: "KEYWORD", keywords: ["x"] }))).toBe("When a message contains the word 'x'");
  });

  it("says what welcome and any-message triggers mean", () => {
    expect(triggerSummary(trigger({ type: "WELCOME" }))).toBe("When a contact writes for the first time");
    expect(triggerSummary(trigger({ type: "ANY_MESSAGE" }))).toBe("Any message");
  });

  it("shortens a long keyword list", () => {
    expect(orList(["1", "2", "3", "4", "5", "6", "7"])).toBe("'1', '2', '3', '4', '5' or 2 more");
    expect(orList(["only"])).toBe("'only'");
    expect(orList([])).toBe("");
  });
});

describe("each step, in one line", () => {
  it("knows every kind the definition has", () => {
    expect([...STEP_KIND_ORDER].sort()).toEqual([...STEP_KINDS].sort());
    expect(kindOf(step({ delay: { minutes: 5 } }))).toBe("delay");
  });

  it("quotes a reply and lists its buttons", () => {
    const reply = step({
      send_reply: {
        text: "Hi {{contact.name}}",
        buttons: [
          { id: "y", title: "Yes" },
          { id: "n", title: "No" },
        ],
      },
    });
    expect(stepSummary(reply)).toBe("Reply: 'Hi {{contact.name}}' with buttons Yes / No");
    expect(stepSummary(step({ send_reply: { text: "Line one\n\n  line two" } }))).toBe("Reply: 'Line one line two'");
    expect(stepSummary(step({ send_reply: { text: "x".repeat(200) } }))).toMatch(/^Reply: 'x{79}…'$/);
  });

  it("reads delays in the largest whole unit", () => {
    expect(stepSummary(step({ delay: { minutes: 5 } }))).toBe("Wait 5 minutes");
    expect(stepSummary(step({ delay: { minutes: 1 } }))).toBe("Wait 1 minute");
    expect(stepSummary(step({ delay: { minutes: 120 } }))).toBe("Wait 2 hours");
    expect(stepSummary(step({ delay: { minutes: 2880 } }))).toBe("Wait 2 days");
    expect(duration(90)).toBe("90 minutes");
  });

  it("shows a wait's timeout (24 h unless set) and its options", () => {
    expect(stepSummary(step({ wait_reply: {} }))).toBe("Wait for a reply (24 h)");
    expect(
      stepSummary(
        step({
          wait_reply: {
            timeout_hours: 2,
            options: [
              { id: "c", label: "Coffee" },
              { id: "t", label: "Tea" },
            ],
          },
        }),
      ),
    ).toBe("Wait for a reply (2 h): options Coffee / Tea");
  });

  it("names hand-offs, flows and functions with what happens to the result", () => {
    expect(stepSummary(step({ pause_replies: {} }))).toBe("Hand off to a person");
    expect(stepSummary(step({ pause_replies: { reason: "billing" } }))).toBe("Hand off to a person: billing");
    expect(stepSummary(step({ send_flow: { flow: "signup" } }))).toBe("Send flow 'signup'");
    expect(stepSummary(step({ run_function: { function: "lookup", result_mode: "reply" } }))).toBe("Run function 'lookup' → reply");
    expect(stepSummary(step({ run_function: { function: "lookup", result_mode: "reply", reply_field: "answer" } }))).toBe(
      "Run function 'lookup' → reply (field 'answer')",
    );
    expect(stepSummary(step({ run_function: { function: "lookup", result_mode: "variables", variable_name: "order" } }))).toBe(
      "Run function 'lookup' → vars.order",
    );
    expect(stepSummary(step({ run_function: { function: "ping" } }))).toBe("Run function 'ping'");
  });

  it("collapses whitespace in previews", () => {
    expect(preview("  a \n b  ")).toBe("a b");
  });
});

describe("where a run stands", () => {
  const steps = [step({ send_reply: { text: "Coffee or tea?" } }), step({ wait_reply: { options: [{ id: "c", label: "Coffee" }] } })];

  it("counts steps from 1 and says what the step does", () => {
    expect(runPosition({ status: "WAITING", step_index: 1 }, steps)).toBe("Waiting at step 2: Wait for a reply (24 h): options Coffee");
    expect(runPosition({ status: "FAILED", step_index: 0 }, steps)).toBe("Stopped at step 1: Reply: 'Coffee or tea?'");
    expect(runPosition({ status: "TIMED_OUT", step_index: 1 }, steps)).toMatch(/^Stopped at step 2: Wait for a reply/);
    expect(runPosition({ status: "RUNNING", step_index: 0 }, steps)).toMatch(/^Running step 1: /);
  });

  it("says a completed run completed, and survives an index past the steps", () => {
    expect(runPosition({ status: "COMPLETED", step_index: 2 }, steps)).toBe("Completed 2 steps");
    expect(runPosition({ status: "CANCELLED", step_index: 7 }, steps)).toBe("Stopped at step 8");
  });
});

describe("whether routing lets automations fire", () => {
  const sandbox: RoutingChannel = {
    id: "ch_sandbox",
    number_mode: "sandbox",
    status: "connected",
    routing_mode: "EXTERNAL",
    display_name: "Sandbox",
    phone_number: null,
  };
  const dedicated = (routing_mode: RoutingChannel["routing_mode"], status: RoutingChannel["status"] = "connected"): RoutingChannel => ({
    id: `ch_${routing_mode}`,
    number_mode: "dedicated",
    status,
    routing_mode,
    display_name: null,
    phone_number: "+15550001111",
  });

  it("warns that nothing fires while the project is EXTERNAL and no channel routes to FLOWS", () => {
    expect(routingNotice("EXTERNAL", [sandbox])).toMatchObject({
      tone: "warning",
      title: "Automations are stored but will not fire while routing is EXTERNAL",
    });
    expect(routingNotice("AGENT", [sandbox, dedicated("EXTERNAL")])?.title).toBe("Automations are stored but will not fire while routing is AGENT");
    // A disconnected channel receives nothing: it does not count.
    expect(routingNotice("EXTERNAL", [sandbox, dedicated("FLOWS", "disconnected")])?.tone).toBe("warning");
  });

  it("names the channels where they do fire when only some route to FLOWS", () => {
    expect(routingNotice("EXTERNAL", [sandbox, dedicated("FLOWS")])).toMatchObject({ tone: "info", title: "Automations fire only on +15550001111" });
    expect(routingNotice("FLOWS", [sandbox, dedicated("NONE")])).toMatchObject({
      tone: "info",
      title: "Automations do not fire on +15550001111 (routing NONE)",
    });
  });

  it("judges a channel that follows the project by the project's routing, an AGENT one included", () => {
    expect(routingNotice("FLOWS", [sandbox, dedicated(null)])).toBeNull();
    expect(routingNotice("AGENT", [sandbox, dedicated(null), { ...dedicated("FLOWS"), id: "ch_own", phone_number: "+15550002222" }])).toMatchObject({
      tone: "info",
      title: "Automations fire only on +15550002222",
    });
  });

  it("says nothing when every live channel routes to FLOWS (the sandbox follows the project)", () => {
    expect(routingNotice("FLOWS", [sandbox])).toBeNull();
    expect(routingNotice("FLOWS", [sandbox, dedicated("FLOWS"), dedicated("EXTERNAL", "disconnected")])).toBeNull();
  });
});
