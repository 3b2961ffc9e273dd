import { parse, stringify, YAMLParseError } from "yaml";

/**
 * The config document as text: JSON or YAML, both ways. The server checks the content; here only
 * whether the text is a document at all, so a typo is shown at its line before anything is sent.
 */
export type DocumentFormat = "yaml" | "json";

export type ParsedDocument = { ok: true; value: Record<string, unknown>; format: DocumentFormat } | { ok: false; message: string; format: DocumentFormat };

/** By the file's extension when it has one we know, else by the text (a JSON document starts with "{"). */
export function detectFormat(text: string, fileName?: string): DocumentFormat {
  const extension = fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (extension === "json") return "json";
  if (extension === "yaml" || extension === "yml") return "yaml";
  return text.trimStart().startsWith("{") ? "json" : "yaml";
}

/**
 * Where JSON.parse stopped. Engines word this differently ("at position 20 (line 2 column 5)", or
 * only the token): the YAML parser, which reads JSON too, is asked for the spot when the engine
 * does not say.
 */
function jsonErrorSpot(text: string, message: string): string | null {
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}`;
  try {
    parse(text);
  } catch (error) {
    const at = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
    if (at) return `line ${at.line}, column ${at.col}`;
  }
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const spot = jsonErrorSpot(text, raw);
    // The engine's own words, without its copy of the text or its character offset.
    const reason = raw.replace(/, ".*$/s, "").replace(/ in JSON at position \d+.*$/s, "");
    throw new Error(`Not valid JSON${spot ? ` at ${spot}` : ""}: ${reason}`, { cause: error });
  }
}

function parseYaml(text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const at = error.linePos?.[0];
      const where = at ? ` at line ${at.line}, column ${at.col}` : "";
      throw new Error(`Not valid YAML${where}: ${error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "")}`, { cause: error });
    }
    throw error;
  }
}

/** Text → document, or a message saying where the text is broken. */
export function parseDocument(text: string, fileName?: string): ParsedDocument {
  const format = detectFormat(text, fileName);
  if (!text.trim()) return { ok: false, message: "The document is empty.", format };
  try {
    const value = format === "json" ? parseJson(text) : parseYaml(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, message: "A config document is an object at the top level (version, flows, automations, …).", format };
    }
    return { ok: true, value: value as Record<string, unknown>, format };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error), format };
  }
}

/** Document → text in the format asked for; key order kept as the server wrote it. */
export function serializeDocument(document: unknown, format: DocumentFormat): string {
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  // lineWidth 0: long texts stay on one line instead of being folded.
  return stringify(document, { lineWidth: 0 });
}

export const DOWNLOAD_FILES: Record<DocumentFormat, { name: string; type: string }> = {
  yaml: { name: "config.yaml", type: "application/yaml" },
  json: { name: "config.json", type: "application/json" },
};
