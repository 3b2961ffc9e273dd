import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nextStartArgs } from "../../bench/procs";

/**
 * The Procfile is what README "Running in production" tells operators to run: each line names a
 * process and a command whose npm script exists, and the README quotes each line as it is.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const procfile = readFileSync(path.join(ROOT, "Procfile"), "utf8").trim().split("\n");
const scripts = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");

describe("the Procfile", () => {
  it("lists the release step, the web process and the worker, each an npm script of this package", () => {
    const lines = procfile.map((line) => /^([a-z]+): (?:[A-Z_]+=\S+ )*npm (?:run )?([a-z:]+)$/.exec(line));
    expect(lines.every(Boolean), procfile.join("\n")).toBe(true);
    expect(lines.map((m) => m![1])).toEqual(["release", "web", "worker"]);
    for (const m of lines) expect(scripts[m![2]!], m![0]).toBeDefined();
    expect(procfile[1]).toContain("SVC_WORKER=off");
  });

  it("is quoted line by line in README's process table", () => {
    for (const line of procfile) expect(readme).toContain(`| \`${line}\` |`);
  });

  it("starts the web with a keep-alive timeout above a load balancer's 60 s, and the bench and fault suite start it the same way", () => {
    const timeout = /--keepAliveTimeout (\d+)/.exec(scripts.start ?? "");
    expect(Number(timeout?.[1])).toBeGreaterThan(60_000);
    const args = nextStartArgs(4321);
    expect(args.slice(1)).toEqual(["start", "--keepAliveTimeout", timeout![1], "-p", "4321", "-H", "127.0.0.1"]);
    expect(args[0]).toMatch(/node_modules\/next\/dist\/bin\/next$/);
  });
});
