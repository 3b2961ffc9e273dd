import { writeFile } from "node:fs/promises";
import pc from "picocolors";
import type { Command, CommandIo } from "../commands";
import { ApiRefusal, callApi, targetOf, type Flags } from "./client";
import { formatDocument, readDocument } from "./document";
import { countErrors, printDiff, printIssues, summaryOf, type DiffItemLike, type IssueLike } from "./print";

/**
 * `npm run svc -- config validate|diff|apply|export [file]` (README "Config-as-code"): HTTP calls to
 * the public API with --url/--key or SVC_API_URL/SVC_API_KEY. Exit status: non-zero on error issues
 * and on HTTP errors (the thrown message is printed by cli/index.ts), 0 otherwise.
 */
const connection = { url: { type: "string" }, key: { type: "string" }, file: { type: "string" } } as const;

function fileOf(flags: Flags, required: boolean): string | null {
  const file = typeof flags.file === "string" && flags.file !== "" ? flags.file : null;
  if (!file && required) throw new Error("Name the document: npm run svc -- config <command> svc.config.yaml (or - for standard input).");
  return file;
}

/** The document from disk and the API's answer to it; a refused document's issues are printed before the error. */
async function send(flags: Flags, path: string, io: CommandIo): Promise<Record<string, unknown>> {
  const document = await readDocument(fileOf(flags, true)!);
  try {
    return (await callApi(targetOf(flags), "POST", path, document)) as Record<string, unknown>;
  } catch (failure) {
    if (ApiRefusal.is(failure)) printRefusal(failure, io);
    throw failure;
  }
}

function printRefusal(failure: ApiRefusal, io: CommandIo): void {
  const listed = failure.body?.config_issues;
  if (Array.isArray(listed)) return printIssues(listed as IssueLike[], io.out);
  const map = failure.body?.issues;
  if (map && typeof map === "object") {
    for (const [path, messages] of Object.entries(map as Record<string, string[]>)) {
      for (const message of messages) printIssues([{ path, message, severity: "error" }], io.out);
    }
  }
}

function verdict(issues: IssueLike[], io: CommandIo, success: string): void {
  printIssues(issues, io.out);
  const errors = countErrors(issues);
  if (errors) throw new Error(`Invalid: ${errors} error(s), ${issues.length - errors} warning(s).`);
  io.out(pc.green(success));
}

export const configCommands: Command[] = [
  {
    group: "config",
    name: "validate",
    summary: "<file> [--url --key]: check a config document (JSON or YAML) against the project",
    positional: "file",
    options: connection,
    async run(flags, io) {
      const answer = await send(flags, "/config/validate", io);
      const issues = answer.issues as IssueLike[];
      verdict(issues, io, `Valid${issues.length ? ` (${issues.length} warning(s))` : ""}.`);
    },
  },
  {
    group: "config",
    name: "diff",
    summary: "<file> [--url --key]: what applying the document would change",
    positional: "file",
    options: connection,
    async run(flags, io) {
      const answer = await send(flags, "/config/diff", io);
      const items = answer.diff as DiffItemLike[];
      printDiff(items, io.out);
      verdict(answer.issues as IssueLike[], io, summaryOf(items, false));
    },
  },
  {
    group: "config",
    name: "apply",
    summary: "<file> [--url --key]: apply the document in one transaction (needs config:write)",
    positional: "file",
    options: connection,
    async run(flags, io) {
      const answer = await send(flags, "/config/apply", io);
      const items = answer.diff as DiffItemLike[];
      printDiff(items, io.out);
      verdict(answer.issues as IssueLike[], io, summaryOf(items, true));
    },
  },
  {
    group: "config",
    name: "export",
    summary: "[file] [--format yaml|json] [--url --key]: the project as a document (YAML by default; stdout without a file)",
    positional: "file",
    options: { ...connection, format: { type: "string" } },
    async run(flags, io) {
      const format = flags.format === undefined ? "yaml" : flags.format;
      if (format !== "yaml" && format !== "json") throw new Error("--format is yaml or json.");
      const text = formatDocument(await callApi(targetOf(flags), "GET", "/config"), format);
      const file = fileOf(flags, false);
      if (!file) return io.out(text.replace(/\n$/, ""));
      await writeFile(file, text);
      io.out(`Wrote ${file}.`);
    },
  },
];
