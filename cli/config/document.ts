import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";

/**
 * Config documents on disk: JSON or YAML, by extension (.json, .yaml, .yml) or, without one, by
 * content (a document starting with `{` is JSON). "-" reads standard input.
 */
export async function readDocument(file: string, stdin: () => Promise<string> = readStdin): Promise<unknown> {
  let text: string;
  try {
    text = file === "-" ? await stdin() : await readFile(file, "utf8");
  } catch (failure) {
    throw new Error(`Cannot read '${file}': ${(failure as NodeJS.ErrnoException).code ?? String(failure)}`, { cause: failure });
  }
  const format = formatOf(file, text);
  try {
    return format === "json" ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (failure) {
    throw new Error(`'${file}' is not valid ${format.toUpperCase()}: ${failure instanceof Error ? failure.message : String(failure)}`, { cause: failure });
  }
}

function formatOf(file: string, text: string): "json" | "yaml" {
  const extension = path.extname(file).toLowerCase();
  if (extension === ".json") return "json";
  if (extension === ".yaml" || extension === ".yml") return "yaml";
  return text.trimStart().startsWith("{") ? "json" : "yaml";
}

/** YAML by default (the shape people keep in a repository); `json` for tools. Key order is the server's. */
export function formatDocument(document: unknown, format: "yaml" | "json"): string {
  return format === "json" ? `${JSON.stringify(document, null, 2)}\n` : stringifyYaml(document, { lineWidth: 0 });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
