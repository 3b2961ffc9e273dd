import { describe, expect, it } from "vitest";
import type { FormValue } from "@/components/flow-render/bindings";
import { readScreen } from "@/components/flow-render/flow-json-read";
import { openScreen, pressFooter, screenDataOf } from "@/components/flow-render/screen-state";
import { advance, startTrial, type Trial } from "@/components/flows/preview/trial";
import { analyzeFlow } from "@/lib/domain/flows/flow-json/analyze";
import { validateSubmission } from "@/lib/domain/flows/flow-json/submission";
import type { Draft } from "@/lib/domain/flows/flow-json/types";

/**
 * The editor's "Try it" (components/flows/preview/trial.ts over components/flow-render/screen-state.ts,
 * which the sandbox phone walks with too): the completion it ends with is the one the provider sends.
 * An input nobody touched has no value and is absent, on its own screen and after being carried to the
 * next one; a touched one holds what was picked; a required one stops the Footer. Each input type has a
 * screen-1 field here, since carrying a value through a navigate is where examples used to fill the gaps.
 */
const options = (...ids: string[]) => ids.map((id, index) => ({ id, title: `Option ${index + 1}` }));

const DRAFT: Draft = {
  entryScreenId: "PICK",
  screens: [
    {
      id: "PICK",
      title: "Pick",
      fields: [
        { name: "dropdown_1", type: "dropdown", label: "Colour", options: options("option_1", "option_2") },
        { name: "size", type: "dropdown", label: "Size", required: true, options: options("small", "large") },
        { name: "pace", type: "radio", label: "Pace", options: options("slow", "fast") },
        { name: "extras", type: "checkbox", label: "Extras", options: options("bag", "card") },
        { name: "day", type: "date", label: "Day" },
        { name: "updates", type: "optin", label: "Send me updates" },
        { name: "nickname", type: "text", label: "Nickname" },
      ],
      next: "DONE",
    },
    { id: "DONE", title: "Done", fields: [{ name: "consent", type: "optin", label: "Keep my answers" }] },
  ],
};

const compiled = analyzeFlow({ draft: DRAFT });
const flowJson = compiled.flow_json!;

type Walked = { ended: Extract<Trial, { at: "end" }> } | { stopped: { screen: string; errors: Record<string, string> } };

/** Try it from the first screen, entering `answers[screen]` on each (nothing else touched), pressing each Footer. */
function tryIt(answers: Record<string, Record<string, FormValue>>): Walked {
  let trial = startTrial(flowJson)!;
  for (let step = 0; step < 10; step++) {
    if (trial.at === "end") return { ended: trial };
    const screen = readScreen(flowJson, trial.screenId)!;
    // As FlowScreenView opens a screen: its data and starting values, then what the tester entered.
    const opened = openScreen(screen, trial.data);
    const pressed = pressFooter(screen, { data: opened.data, form: { ...opened.form, ...answers[screen.id] } });
    if (pressed.kind === "invalid") return { stopped: { screen: screen.id, errors: pressed.errors } };
    if (pressed.kind !== "action") throw new Error(`screen ${screen.id} has no Footer action`);
    trial = advance(trial, pressed.action);
  }
  throw new Error("the walk did not end");
}

describe("Try it: the completion the preview shows", () => {
  it("starts on the flow's first screen with nothing entered", () => {
    expect(compiled.validation_errors).toEqual([]);
    const trial = startTrial(flowJson)!;
    expect(trial).toMatchObject({ at: "screen", screenId: "PICK", data: {} });
    expect(openScreen(readScreen(flowJson, "PICK")!, {})).toEqual({ data: {}, form: {} });
  });

  it("leaves every untouched optional input out, after it was carried to the next screen too", () => {
    const walked = tryIt({ PICK: { size: "large" } });
    expect(walked).toEqual({ ended: { at: "end", kind: "complete", payload: { size: "large" } } });
  });

  it("holds what was picked in a touched optional dropdown (and every other input that was answered)", () => {
    const answers = { dropdown_1: "option_2", size: "small", pace: "fast", extras: ["card"], day: "2026-07-01", updates: true, nickname: "Ana" };
    const walked = tryIt({ PICK: answers, DONE: { consent: true } });
    expect(walked).toEqual({ ended: { at: "end", kind: "complete", payload: { ...answers, consent: true } } });
  });

  it("a required dropdown left untouched stops the Footer on its screen, as the customer's phone does", () => {
    expect(tryIt({ PICK: { dropdown_1: "option_1" } })).toEqual({ stopped: { screen: "PICK", errors: { size: "Required" } } });
  });

  it("a completion with untouched optional inputs is what the server accepts as a valid submission", () => {
    const walked = tryIt({ PICK: { size: "large" } });
    if (!("ended" in walked)) throw new Error("the walk stopped");
    expect(validateSubmission(compiled.field_schema!, flowJson, walked.ended.payload)).toEqual({ submission: { size: "large" }, errors: [] });
  });

  it("a still picture of a later screen still shows the declared examples (only a walk uses the real data)", () => {
    const done = readScreen(flowJson, "DONE")!;
    expect(screenDataOf(done, undefined)).toMatchObject({ dropdown_1: "option_1", size: "small" });
    expect(screenDataOf(done, { size: "large" })).toEqual({ size: "large" });
  });
});
