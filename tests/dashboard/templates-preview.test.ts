import { describe, expect, it } from "vitest";
import { placeholders } from "@/lib/shared/templates/template-text";
import { ApiError } from "@/lib/client/api";
import type { Channel } from "@/lib/client/channels";
import { canSubmitTemplates, defaultChannelId, templateChannels } from "@/components/templates/model/channels";
import { emptyDraft, newButton, withCategory, type TemplateDraft } from "@/components/templates/model/draft";
import { flowScreenIds } from "@/components/templates/model/flow-screens";
import { SAMPLE_CODE, previewOf } from "@/components/templates/model/preview";
import { describeSubmitError } from "@/components/templates/model/submit-error";
import {
  fillVariables,
  insertAt,
  namedVariableProblem,
  nextPositional,
  segmentsText,
  variableToken,
  variablesIn,
} from "@/components/templates/model/variables";

/**
 * The template builder's pure parts: finding variables and inserting the next one, the live preview
 * (variables replaced by their examples), the submit error banner's words, and which channels can
 * carry templates.
 */

describe("variables", () => {
  it("finds each variable once, in order of first appearance, as the server's reader does", () => {
    const text = "Hi {{1}}, order {{2}} for {{1}} ({{ bad }}) {{first_name}}";
    expect(variablesIn(text)).toEqual(["1", "2", " bad ", "first_name"]);
    expect(variablesIn(text)).toEqual([...new Set(placeholders(text))]);
    expect(variablesIn("no variables")).toEqual([]);
  });

  it("numbers the next positional variable one past the highest", () => {
    expect(nextPositional("")).toBe("1");
    expect(nextPositional("{{1}} and {{2}}")).toBe("3");
    expect(nextPositional("{{2}} then {{name}}")).toBe("3");
    expect(variableToken("POSITIONAL", "Hi {{1}}", "ignored")).toBe("{{2}}");
    expect(variableToken("NAMED", "Hi {{1}}", "first_name")).toBe("{{first_name}}");
  });

  it("inserts at the caret or over the selection, and says where the caret goes", () => {
    expect(insertAt("Hi , thanks", 3, 3, "{{1}}")).toEqual({ text: "Hi {{1}}, thanks", caret: 8 });
    expect(insertAt("Hi NAME!", 3, 7, "{{1}}")).toEqual({ text: "Hi {{1}}!", caret: 8 });
    expect(insertAt("Hi", 99, 120, "{{1}}")).toEqual({ text: "Hi{{1}}", caret: 7 });
  });

  it("accepts only lower-case snake names for NAMED variables", () => {
    expect(namedVariableProblem("first_name")).toBeNull();
    expect(namedVariableProblem("_x1")).toBeNull();
    expect(namedVariableProblem("")).toMatch(/name/);
    expect(namedVariableProblem("First")).toMatch(/Lower-case/);
    expect(namedVariableProblem("1st")).toMatch(/Lower-case/);
  });

  it("fills variables with their examples and marks the ones without", () => {
    const segments = fillVariables("Hi {{1}}, order {{2}} is {{3}}.", { "1": "Ana", "2": "A-1", "3": "  " });
    expect(segmentsText(segments)).toBe("Hi Ana, order A-1 is {{3}}.");
    expect(segments.filter((s) => s.missing).map((s) => s.variable)).toEqual(["3"]);
    expect(segments.find((s) => s.text === "Ana")).toEqual({ text: "Ana", variable: "1" });
  });
});

describe("previewOf", () => {
  function draft(): TemplateDraft {
    return {
      ...emptyDraft(),
      header: { format: "TEXT", text: "Order {{1}}", handle: "", examples: { "1": "A-123" } },
      body: { text: "Hi {{1}}, it shipped.", examples: { "1": "Ana" }, addSecurityRecommendation: false },
      footer: { text: "Acme Inc.", codeExpirationMinutes: "" },
      buttons: [{ ...newButton("URL", "u"), text: "" }, { ...newButton("COPY_CODE", "c") }, { ...newButton("QUICK_REPLY", "q"), text: "Thanks" }],
    };
  }

  it("shows header, body and footer with the example values, and each button's label", () => {
    const preview = previewOf(draft());
    expect(preview.header?.kind).toBe("text");
    expect(preview.header?.kind === "text" && segmentsText(preview.header.segments)).toBe("Order A-123");
    expect(segmentsText(preview.body)).toBe("Hi Ana, it shipped.");
    expect(preview.footer).toBe("Acme Inc.");
    expect(preview.buttons.map((b) => b.label)).toEqual(["Visit website", "Copy offer code", "Thanks"]);
  });

  it("follows each edit: a new variable shows as {{2}} until it has an example", () => {
    const edited = { ...draft(), body: { ...draft().body, text: "Hi {{1}}, order {{2}} shipped." } };
    expect(segmentsText(previewOf(edited).body)).toBe("Hi Ana, order {{2}} shipped.");
    edited.body.examples = { ...edited.body.examples, "2": "A-9" };
    expect(segmentsText(previewOf(edited).body)).toBe("Hi Ana, order A-9 shipped.");
  });

  it("shows a media header as a placeholder and no header at all for NONE", () => {
    expect(previewOf({ ...draft(), header: { ...draft().header, format: "IMAGE" } }).header).toEqual({ kind: "media", format: "IMAGE" });
    expect(previewOf({ ...draft(), header: { ...draft().header, format: "NONE" } }).header).toBeNull();
  });

  it("writes AUTHENTICATION's preset text with a sample code, the security line and the expiry", () => {
    const auth = withCategory(draft(), "AUTHENTICATION", "otp");
    auth.body = { ...auth.body, addSecurityRecommendation: true };
    auth.footer = { text: "", codeExpirationMinutes: "5" };
    const preview = previewOf(auth);
    expect(preview.header).toBeNull();
    expect(segmentsText(preview.body)).toBe(`${SAMPLE_CODE} is your verification code. For your security, do not share this code.`);
    expect(preview.footer).toBe("This code expires in 5 minutes.");
    expect(preview.buttons.map((b) => b.label)).toEqual(["Copy code"]);
  });
});

describe("describeSubmitError", () => {
  it("lists a 412's blockers in words with their next step", () => {
    const error = new ApiError({
      status: 412,
      code: "channel_not_ready",
      message: "Channel ch_1 cannot submit templates yet.",
      body: { error: "channel_not_ready", message: "…", blockers: ["BUSINESS_NOT_VERIFIED", "SOMETHING_NEW"] },
    });
    const problem = describeSubmitError(error, 0)!;
    expect(problem.code).toBe("channel_not_ready");
    expect(problem.details).toEqual([
      "The business isn't verified with the provider. Complete business verification in the provider's business settings.",
      "SOMETHING_NEW",
    ]);
  });

  it("quotes the provider for template_rejected, and counts a 400's marked fields", () => {
    const rejected = new ApiError({
      status: 422,
      code: "template_rejected",
      message: "The provider refused the template: Invalid parameter",
      body: { error: "template_rejected", message: "…", failure: { title: "Content in this language already exists", message: "Use another name." } },
    });
    expect(describeSubmitError(rejected, 0)?.message).toBe("Content in this language already exists: Use another name.");
    const invalid = new ApiError({ status: 400, code: "invalid_request", message: "See issues.", issues: { name: ["x"] } });
    expect(describeSubmitError(invalid, 2)?.message).toBe("Fix 2 fields marked below, then submit again.");
    expect(describeSubmitError(invalid, 0)?.message).toBe("See issues.");
    expect(describeSubmitError(null, 0)).toBeNull();
  });
});

describe("template channels", () => {
  const readiness = (can: boolean) => ({
    mode: "dedicated" as const,
    can_publish_flows: can,
    can_submit_templates: can,
    business_verification_status: null,
    account_review_status: null,
    phone_number_status: null,
    blockers: can ? [] : ["META_ACCOUNT_STATUS_UNKNOWN" as const],
  });
  const channel = (id: string, patch: Partial<Channel> = {}): Channel => ({
    object: "channel",
    id,
    channel_id: id,
    platform: "PLATFORM_A",
    status: "connected",
    display_name: id,
    phone_number: null,
    routing_mode: "EXTERNAL",
    number_mode: "dedicated",
    is_sandbox: false,
    routing_warning: null,
    publish_readiness: readiness(false),
    ...patch,
  });

  it("offers dedicated PLATFORM_A numbers still connected, the project's own first", () => {
    const all = [
      channel("ch_sandbox", { is_sandbox: true, number_mode: "sandbox" }),
      channel("ch_b", { platform: "PLATFORM_B", publish_readiness: null }),
      channel("ch_old", { status: "disconnected" }),
      channel("ch_other"),
      channel("ch_mine"),
    ];
    expect(templateChannels(all, "ch_mine").map((c) => c.id)).toEqual(["ch_mine", "ch_other"]);
  });

  it("starts on the first channel that can submit, else the first", () => {
    const notReady = channel("ch_1");
    const ready = channel("ch_2", { publish_readiness: readiness(true) });
    expect(canSubmitTemplates(ready)).toBe(true);
    expect(defaultChannelId([notReady, ready])).toBe("ch_2");
    expect(defaultChannelId([notReady])).toBe("ch_1");
    expect(defaultChannelId([])).toBe("");
  });
});

describe("flowScreenIds", () => {
  it("reads the screen ids of a Flow JSON and skips anything else", () => {
    expect(flowScreenIds({ version: "7.3", screens: [{ id: "WELCOME" }, { title: "no id" }, { id: "DONE" }] })).toEqual(["WELCOME", "DONE"]);
    expect(flowScreenIds(null)).toEqual([]);
    expect(flowScreenIds({ screens: "nope" })).toEqual([]);
  });
});
