import { describe, expect, it } from "vitest";
import { componentsFor, parametersProblem } from "@/lib/shared/broadcasts/parameters";
import type { TemplateShape } from "@/lib/shared/templates/types";

/** Shapes as templateShape builds them (lib/shared/templates/validate.ts), written out so each case reads alone. */
const shape = (
  parameter_format: TemplateShape["parameter_format"],
  header: string[] | null,
  body: string[],
  buttons: TemplateShape["variables"]["buttons"] = [],
): TemplateShape => ({
  parameter_format,
  header_format: header === null ? null : "TEXT",
  variables: { header: header ?? [], body, buttons },
});

// "Hello {{1}}" / "Hi {{1}}, order {{2}} ships today."
const POSITIONAL = shape("POSITIONAL", ["1"], ["1", "2"]);
// "{{season}} sale" / "Hi {{first_name}}, use {{code}}."
const NAMED = shape("NAMED", ["season"], ["first_name", "code"]);
const NO_VARIABLES = shape("POSITIONAL", null, []);
const BODY_ONLY = shape("POSITIONAL", null, ["1"]);
const IMAGE_HEADER: TemplateShape = { parameter_format: "POSITIONAL", header_format: "IMAGE", variables: { header: [], body: ["1"], buttons: [] } };
const URL_BUTTON = shape("POSITIONAL", null, ["1"], [{ index: 0, type: "URL", variables: ["1"] }]);
const FLOW_BUTTON = shape("POSITIONAL", null, ["1"], [{ index: 0, type: "FLOW", variables: [] }]);

describe("componentsFor", () => {
  it("turns a POSITIONAL map into header and body text parameters in the template's order", () => {
    expect(componentsFor(POSITIONAL, { "2": "A-1", "1": "Ana", "header.1": "Spring" })).toEqual([
      { type: "header", parameters: [{ type: "text", text: "Spring" }] },
      {
        type: "body",
        parameters: [
          { type: "text", text: "Ana" },
          { type: "text", text: "A-1" },
        ],
      },
    ]);
  });

  it("names each parameter of a NAMED template, the header's from header.<name>", () => {
    expect(componentsFor(NAMED, { code: "SPRING15", first_name: "Ana", "header.season": "Spring" })).toEqual([
      { type: "header", parameters: [{ type: "text", text: "Spring", parameter_name: "season" }] },
      {
        type: "body",
        parameters: [
          { type: "text", text: "Ana", parameter_name: "first_name" },
          { type: "text", text: "SPRING15", parameter_name: "code" },
        ],
      },
    ]);
  });

  it("writes numbers as text", () => {
    expect(componentsFor(BODY_ONLY, { "1": 42 })).toEqual([{ type: "body", parameters: [{ type: "text", text: "42" }] }]);
  });

  it("leaves a missing value empty (parametersProblem refuses such a row before it is stored)", () => {
    expect(componentsFor(BODY_ONLY, {})).toEqual([{ type: "body", parameters: [{ type: "text", text: "" }] }]);
  });

  it("passes an array of components through as it is", () => {
    const components = [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }];
    expect(componentsFor(BODY_ONLY, components)).toBe(components);
  });

  it("gives no components to a template without variables, whatever the map", () => {
    expect(componentsFor(NO_VARIABLES, undefined)).toBeUndefined();
    expect(componentsFor(NO_VARIABLES, null)).toBeUndefined();
    expect(componentsFor(NO_VARIABLES, {})).toBeUndefined();
  });

  it("gives no header component for a media header (a map cannot carry one)", () => {
    expect(componentsFor(IMAGE_HEADER, { "1": "Ana" })).toEqual([{ type: "body", parameters: [{ type: "text", text: "Ana" }] }]);
  });

  it("gives no button component: a FLOW button is left to the send", () => {
    expect(componentsFor(FLOW_BUTTON, { "1": "Ana" })).toEqual([{ type: "body", parameters: [{ type: "text", text: "Ana" }] }]);
  });
});

describe("parametersProblem", () => {
  it("accepts a complete POSITIONAL map, header included", () => {
    expect(parametersProblem(POSITIONAL, { "1": "Ana", "2": "A-1", "header.1": "Spring" })).toBeNull();
  });

  it("accepts a complete NAMED map, header included", () => {
    expect(parametersProblem(NAMED, { first_name: "Ana", code: "SPRING15", "header.season": "Spring" })).toBeNull();
  });

  it("accepts no parameters for a template without variables", () => {
    expect(parametersProblem(NO_VARIABLES, undefined)).toBeNull();
    expect(parametersProblem(NO_VARIABLES, null)).toBeNull();
    expect(parametersProblem(NO_VARIABLES, {})).toBeNull();
  });

  it("names unknown variables and lists the ones the template takes", () => {
    expect(parametersProblem(NAMED, { first_name: "Ana", code: "X", "header.season": "S", firstname: "Ana" })).toBe(
      "Unknown template variable: firstname. It takes first_name, code, header.season.",
    );
    expect(parametersProblem(POSITIONAL, { "1": "Ana", "2": "A-1", "header.1": "S", "3": "x", season: "y" })).toBe(
      "Unknown template variables: 3, season. It takes 1, 2, header.1.",
    );
  });

  it("does not take a header variable without its header. prefix", () => {
    expect(parametersProblem(NAMED, { first_name: "Ana", code: "X", season: "Spring" })).toBe(
      "Unknown template variable: season. It takes first_name, code, header.season.",
    );
  });

  it("says the template takes none when it has no variables", () => {
    expect(parametersProblem(NO_VARIABLES, { "1": "Ana" })).toBe("Unknown template variable: 1. It takes none.");
  });

  it("names missing variables, blank values included", () => {
    expect(parametersProblem(NAMED, { first_name: "Ana", "header.season": "Spring" })).toBe("Missing template variable: code.");
    expect(parametersProblem(POSITIONAL, { "1": " ", "2": "A-1" })).toBe("Missing template variables: 1, header.1.");
    expect(parametersProblem(BODY_ONLY, {})).toBe("Missing template variable: 1.");
  });

  it("accepts 0 as a value (a number is not blank)", () => {
    expect(parametersProblem(BODY_ONLY, { "1": 0 })).toBeNull();
  });

  it("asks for the variables when none are given", () => {
    expect(parametersProblem(NAMED, undefined)).toBe("The template has variables and this recipient gives none. It takes first_name, code, header.season.");
    expect(parametersProblem(POSITIONAL, null)).toBe("The template has variables and this recipient gives none. It takes 1, 2, header.1.");
  });

  it("checks an array of components by the rules of POST /messages", () => {
    expect(parametersProblem(BODY_ONLY, [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }])).toBeNull();
    expect(parametersProblem(BODY_ONLY, [{ type: "body", parameters: [] }])).toBe(
      "template.components.0.parameters: The template's body expects 1 parameter ({{1}}); got 0.",
    );
    expect(parametersProblem(NAMED, [{ type: "body", parameters: [{ type: "text", text: "Ana", parameter_name: "first_name" }] }])).toMatch(
      /^template\.components\.0\.parameters: Missing \{\{code\}\}\.$/,
    );
  });

  it("an empty array for a template with variables is refused like a missing body", () => {
    expect(parametersProblem(BODY_ONLY, [])).toBe(
      'template.components: The template\'s body expects 1 parameter ({{1}}): add {type: "body", parameters: [...]}.',
    );
  });

  it("needs the array form for what a map cannot carry: a URL button's variable, a media header", () => {
    expect(parametersProblem(URL_BUTTON, { "1": "Ana" })).toMatch(/^template\.components: Button 0 \(URL\) needs a value/);
    expect(parametersProblem(IMAGE_HEADER, { "1": "Ana" })).toMatch(/^template\.components: The template's header expects one image parameter/);
  });

  it("accepts a FLOW-button template from a map (the button needs no value)", () => {
    expect(parametersProblem(FLOW_BUTTON, { "1": "Ana" })).toBeNull();
  });

  // A NAMED variable may be any lowercase name (/^[a-z_][a-z0-9_]*$/), so "constructor" and "__proto__" are
  // valid names: only the map's own keys count.
  it("treats a variable named like an inherited object member as missing when it is not given", () => {
    const inherited = shape("NAMED", null, ["constructor"]);
    expect(parametersProblem(inherited, {})).toBe("Missing template variable: constructor.");
  });
});
