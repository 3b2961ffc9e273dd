import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/client/api";
import { canApply, diffHeadline, groupDiff, issuesFromError, splitIssues } from "@/components/config/model/diff";
import { detectFormat, parseDocument, serializeDocument } from "@/components/config/model/document";
import type { ConfigDiffItem, ConfigIssue } from "@/lib/client/config";

/**
 * The Config page's pure rules: a document read from JSON or YAML text (and written back), the diff
 * grouped by action, issues split by severity, and when Apply is open.
 */

const documentValue = {
  version: 1,
  flows: [],
  automations: [
    {
      key: "greet",
      name: "Greeting",
      trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["hola"] },
      steps: [{ send_reply: { text: "Hi {{contact.name}}: coffee or tea?", buttons: [{ id: "c", title: "Coffee" }] } }],
    },
  ],
};

describe("the document as text", () => {
  it("goes to YAML and JSON and back unchanged, templates included", () => {
    for (const format of ["yaml", "json"] as const) {
      const text = serializeDocument(documentValue, format);
      const parsed = parseDocument(text);
      expect(parsed).toEqual({ ok: true, value: documentValue, format });
    }
    expect(serializeDocument(documentValue, "yaml")).toContain("automations:");
  });

  it("takes the format from the file name first, then from the text", () => {
    expect(detectFormat("{}", "config.yaml")).toBe("yaml");
    expect(detectFormat("a: 1", "config.JSON")).toBe("json");
    expect(detectFormat("  {\n}")).toBe("json");
    expect(detectFormat("version: 1")).toBe("yaml");
  });

  it("says where broken text is broken", () => {
    const json = parseDocument('{\n  "version": 1,\n  "flows": [,]\n}');
    expect(json.ok).toBe(false);
    expect(!json.ok && json.message).toMatch(/^Not valid JSON at line 3/);
    const yaml = parseDocument("version: 1\nflows: [\nautomations: x");
    expect(yaml.ok).toBe(false);
    expect(!yaml.ok && yaml.message).toMatch(/^Not valid YAML at line \d+, column \d+/);
    // Engines that name no position still get one (the YAML parser reads JSON too).
    expect(parseDocument('{"a": 1 "b": 2}')).toMatchObject({ ok: false, message: expect.stringMatching(/^Not valid JSON at line 1, column \d+: /) });
  });

  it("refuses what is not an object at the top level, and empty text", () => {
    expect(parseDocument("- a\n- b")).toMatchObject({ ok: false, message: expect.stringMatching(/object at the top level/) });
    expect(parseDocument("42")).toMatchObject({ ok: false });
    expect(parseDocument("  \n")).toMatchObject({ ok: false, message: "The document is empty." });
  });
});

const item = (action: ConfigDiffItem["action"], key: string, type: ConfigDiffItem["type"] = "automation"): ConfigDiffItem => ({ type, key, action });
const issue = (severity: ConfigIssue["severity"], path = "automations.0"): ConfigIssue => ({ path, message: `${severity} here`, severity });

describe("the diff, grouped", () => {
  const diff = [item("unchanged", "a"), item("create", "b"), item("delete", "c", "flow"), item("create", "d", "webhook"), item("update", "e")];

  it("orders groups create, update, delete, unchanged and keeps the server's order inside each", () => {
    const groups = groupDiff(diff);
    expect(groups.map((group) => group.action)).toEqual(["create", "update", "delete", "unchanged"]);
    expect(groups[0]!.items.map((i) => i.key)).toEqual(["b", "d"]);
    expect(groupDiff([item("update", "x")]).map((group) => group.action)).toEqual(["update"]);
    expect(groupDiff([])).toEqual([]);
  });

  it("sums it up before and after", () => {
    expect(diffHeadline(diff, "planned")).toBe("2 to create, 1 to update, 1 to delete, 1 unchanged");
    expect(diffHeadline(diff, "done")).toBe("2 created, 1 updated, 1 deleted, 1 unchanged");
    expect(diffHeadline([item("unchanged", "a")], "planned")).toBe("No changes");
    expect(diffHeadline([], "done")).toBe("Nothing changed");
  });
});

describe("issues and the Apply button", () => {
  it("splits errors from warnings", () => {
    const { errors, warnings } = splitIssues([issue("warning"), issue("error"), issue("warning")]);
    expect(errors).toHaveLength(1);
    expect(warnings).toHaveLength(2);
  });

  it("opens Apply only for a fresh, valid preview without error issues", () => {
    expect(canApply({ valid: true, issues: [issue("warning")] }, false)).toBe(true);
    expect(canApply({ valid: true, issues: [issue("warning")] }, true)).toBe(false);
    expect(canApply({ valid: false, issues: [] }, false)).toBe(false);
    expect(canApply({ valid: true, issues: [issue("error")] }, false)).toBe(false);
    expect(canApply(undefined, false)).toBe(false);
  });

  it("reads the issues of a refused apply from the 422 body", () => {
    const refused = new ApiError({
      status: 422,
      code: "config_invalid",
      message: "The config has errors.",
      body: { error: "config_invalid", message: "The config has errors.", issues: [issue("error", "automations.0.steps.0.send_reply.text")] as never },
    });
    expect(issuesFromError(refused)).toEqual([issue("error", "automations.0.steps.0.send_reply.text")]);
    const other = new ApiError({
      status: 400,
      code: "invalid_request",
      message: "x",
      body: { error: "invalid_request", message: "x", issues: { name: ["Required"] } },
    });
    expect(issuesFromError(other)).toBeNull();
    expect(issuesFromError(new Error("boom"))).toBeNull();
  });
});
