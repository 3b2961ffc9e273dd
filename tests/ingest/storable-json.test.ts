import { describe, expect, it } from "vitest";
import { parseStorableJson } from "@/lib/text/storable";

/**
 * How ingest parses a stored envelope (lib/text/storable.ts parseStorableJson): every string Postgres
 * could not store comes out with U+FFFD in its place, whichever path the text takes. The checked path
 * (a reviver per value) is taken only by a text that holds or escapes such a character.
 */
describe("parseStorableJson", () => {
  it.each([
    ["an escaped NUL", '{"a":"x\\u0000y"}', "x\uFFFDy"],
    ["an escaped lone high surrogate, upper case", '{"a":"x\\uD800y"}', "x\uFFFDy"],
    ["an escaped lone low surrogate, upper case", '{"a":"\\uDC00y"}', "\uFFFDy"],
    ["an escaped lone surrogate, lower case", '{"a":"x\\udbff"}', "x\uFFFD"],
    ["a valid escaped pair (kept)", '{"a":"\\ud83d\\ude00"}', "\ud83d\ude00"],
    ["a literal lone surrogate", '{"a":"x\ud800y"}', "x\uFFFDy"],
    ["an escaped backslash before u0000 (text, kept)", '{"a":"\\\\u0000"}', "\\u0000"],
    ["plain text, with an escaped é", '{"a":"caf\\u00e9 ok"}', "café ok"],
  ])("%s", (_name, text, value) => {
    expect(parseStorableJson(text)).toEqual({ a: value });
  });

  it("parses nested values as JSON.parse does when nothing needs replacing", () => {
    const text = JSON.stringify({ entry: [{ changes: [{ value: { statuses: [{ id: "wamid.1", status: "read", n: 3, ok: true, none: null }] } }] }] });
    expect(parseStorableJson(text)).toEqual(JSON.parse(text));
  });

  it("throws on text that is not JSON, as JSON.parse does", () => {
    expect(() => parseStorableJson("{not json")).toThrow(SyntaxError);
  });
});
