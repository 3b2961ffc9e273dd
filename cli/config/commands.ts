import { writeFile } from "node:fs/promises";
import pc from "picocolors";
import type { Schema, SvcClient } from "@svc/sdk";
import type { Command, CommandIo } from "../command";
import { ApiRefusal, answerOf } from "../sdk";
import { apiClient, targetOf, type Flags } from "./client";
import { formatDocument, readDocument } from "./document";
import { countErrors, printDiff, printIssues, summaryOf, type Issue } from "./print";

/**
 * `npm run svc -- config validate|diff|apply|export [file]` (README "Config-as-code"): calls of the
 * public API through @svc/sdk with --url/--key or SVC_API_URL/SVC_API_KEY. Exit status: non-zero on
 * error issues and on HTTP errors (the thrown message is printed by cli/index.ts), 0 otherwise.
 */
const connection = { url: { type: "string" }, key: { type: "string" }, file: { type: "string" } } as const;

function fileOf(flags: Flags, required: boolean): string | null {
  const file = typeof flags.file === "string" && flags.file !== "" ? flags.file : null;
  if (!file && required) throw new Error("Name the document: npm run svc -- config <command> svc.config.yaml (or - for standard input).");
  return file;
}

type Document = Schema<"ConfigDocumentInput">;

/** The document from disk and the API's answer to it (`call`); a refused document's issues are printed before the error. */
async function send<T>(flags: Flags, io: CommandIo, call: (api: SvcClient, body: Document) => Promise<T>): Promise<T> {
  // The server judges the document, whatever it parsed to: an array or a scalar comes back as its issue.
  const body = (await readDocument(fileOf(flags, true)!)) as Document;
  try {
    return await call(apiClient(targetOf(flags)), body);
  } catch (failure) {
    if (ApiRefusal.is(failure)) printRefusal(failure, io);
    throw failure;
  }
}

function printRefusal(failure: ApiRefusal, io: CommandIo): void {
  const listed = failure.body?.config_issues;
  if (Array.isArray(listed)) return printIssues(listed as Issue[], io.out);
  for (const [path, messages] of Object.entries(failure.body?.issues ?? {})) {
    for (const message of messages) printIssues([{ path, message, severity: "error" }], io.out);
  }
}

function verdict(issues: readonly Issue[], io: CommandIo, success: string): void {
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
      const { issues } = await send(flags, io, (api, body) => answerOf(api.POST("/config/validate", { body })));
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
      const { diff, issues } = await send(flags, io, (api, body) => answerOf(api.POST("/config/diff", { body })));
      printDiff(diff, io.out);
      verdict(issues, io, summaryOf(diff, false));
    },
  },
  {
    group: "config",
    name: "apply",
    summary: "<file> [--url --key]: apply the document in one transaction (needs config:write)",
    positional: "file",
    options: connection,
    async run(flags, io) {
      const { diff, issues } = await send(flags, io, (api, body) => answerOf(api.POST("/config/apply", { body })));
      printDiff(diff, io.out);
      verdict(issues, io, summaryOf(diff, true));
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
      const text = formatDocument(await answerOf(apiClient(targetOf(flags)).GET("/config")), format);
      const file = fileOf(flags, false);
      if (!file) return io.out(text.replace(/\n$/, ""));
      await writeFile(file, text);
      io.out(`Wrote ${file}.`);
    },
  },
];
