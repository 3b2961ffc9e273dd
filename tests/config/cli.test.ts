import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { commands } from "@/cli/commands";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startTestServer, type TestServer } from "../support/http-server";

let app: TestApp;
let server: TestServer;
let api: string;
let seeded: Seeded;
let dir: string;

beforeAll(async () => {
  app = await createTestApp();
  server = await startTestServer(() => app.runtime);
  api = `${server.url}/api/v1`;
  seeded = await app.seed({ projectName: "CLI" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-config-cli-"));
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const YAML_DOC = `# kept in the repository
version: 1
project:
  routing_mode: FLOWS
flows:
  - key: welcome
    name: Welcome
    draft:
      entryScreenId: ASK
      screens:
        - id: ASK
          title: Tell us
          fields:
            - { name: answer, type: text, label: Answer, required: true }
automations:
  - key: hello
    name: Hello
    trigger: { type: KEYWORD, keywords: [hello] }
    steps:
      - send_reply: { text: "Hi {{contact.name}}" }
`;

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

// picocolors may colour even off a TTY (FORCE_COLOR): compare the text.
const plain = (text: string) => stripVTControlCharacters(text);

/** The real CLI in its own process: exit code, stdout, stderr. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "cli/index.ts", ...args],
      { cwd: process.cwd(), env: { ...process.env, NO_COLOR: "1", SVC_API_URL: "", SVC_API_KEY: "", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The same commands in this process (faster): the lines they print. */
async function run(name: string, flags: Record<string, string>) {
  const command = commands.find((c) => c.group === "config" && c.name === name)!;
  const lines: string[] = [];
  const db = async () => {
    throw new Error("config commands must not open the database");
  };
  await command.run({ url: api, key: seeded.key, ...flags }, { db, out: (line) => lines.push(plain(line)) });
  return lines;
}

describe("npm run svc -- config (a real process against a real port)", () => {
  it("validate exits 0 on a valid YAML document, with the key and URL from the environment", async () => {
    const file = write("ok.yaml", YAML_DOC);
    const result = await cli(["config", "validate", file], { SVC_API_URL: api, SVC_API_KEY: seeded.key });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Valid.");
  });

  it("validate exits non-zero on error issues and prints each with its path", async () => {
    const file = write(
      "bad.json",
      JSON.stringify({ flows: [], automations: [{ key: "x", name: "X", trigger: { type: "WELCOME" }, steps: [{ send_reply: { text: "" } }] }] }),
    );
    const result = await cli(["config", "validate", file, "--url", api, "--key", seeded.key]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("automations.0.steps.0.send_reply.text");
    expect(result.stderr).toContain("Invalid: 1 error(s)");
  });

  it("apply exits non-zero with the API's message on an HTTP error (a key without config:write)", async () => {
    const reader = await app.addKey(seeded, ["config:read"]);
    const result = await cli(["config", "apply", write("apply.yaml", YAML_DOC), "--url", api, "--key", reader]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("HTTP 403 insufficient_scope");
  });
});

describe("config commands", () => {
  it("apply twice: the second says unchanged", async () => {
    const file = write("twice.yaml", YAML_DOC);
    const first = await run("apply", { file });
    expect(first).toEqual(expect.arrayContaining(["  + flow welcome", "  + automation hello"]));
    expect(first.at(-1)).toMatch(/^Applied: 2 created, 1 updated\./);
    const second = await run("apply", { file });
    expect(second).toEqual(expect.arrayContaining(["  = 3 unchanged"]));
    expect(second.at(-1)).toBe("Nothing to apply: 3 unchanged.");
  });

  it("diff prints + ~ - lines and the issues; export writes YAML (default) or JSON that re-applies unchanged", async () => {
    // Its own project with the document applied, so that it passes in any order (CONTRIBUTING "Tests").
    const own = await app.seed({ projectName: "CLI diff" });
    await run("apply", { file: write("diff-base.yaml", YAML_DOC), key: own.key });
    const changed = write("changed.yaml", YAML_DOC.replace("name: Hello", "name: Hello there").replace(/flows:[\s\S]*automations:/, "flows: []\nautomations:"));
    const diff = await run("diff", { file: changed, key: own.key });
    expect(diff).toEqual(expect.arrayContaining(["  ~ automation hello (name)", "  - flow welcome"]));
    const yamlOut = await run("export", { key: own.key });
    const exported = parseYaml(yamlOut.join("\n")) as { project_id: string; flows: unknown[] };
    expect(exported.project_id).toBe(own.projectId);
    const jsonFile = path.join(dir, "exported.json");
    expect(await run("export", { file: jsonFile, format: "json", key: own.key })).toEqual([`Wrote ${jsonFile}.`]);
    expect(JSON.parse(fs.readFileSync(jsonFile, "utf8"))).toEqual(exported);
    const reapplied = await run("diff", { file: jsonFile, key: own.key });
    expect(reapplied.at(-1)).toMatch(/^No changes: \d+ unchanged\.$/);
  });

  it("a refused apply prints the issues and fails", async () => {
    const file = write("refused.yaml", YAML_DOC.replace('send_reply: { text: "Hi {{contact.name}}" }', "run_function: { function: nowhere }"));
    const lines: string[] = [];
    const command = commands.find((c) => c.group === "config" && c.name === "apply")!;
    const db = async () => {
      throw new Error("no database");
    };
    await expect(command.run({ url: api, key: seeded.key, file }, { db, out: (line) => lines.push(plain(line)) })).rejects.toThrow(/HTTP 422 config_invalid/);
    expect(lines.join("\n")).toContain("automations.0.steps.0.run_function.function");
  });
});
