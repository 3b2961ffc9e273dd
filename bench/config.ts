/**
 * Config-as-code in the bench (issue 17): POST /config/apply of a document with 100 flows (50 keys,
 * each with a default and an es variant) and 200 automations, timed; then the same document again
 * (every item must be `unchanged`), a diff, and export → apply (all `unchanged` too).
 *
 *   npx tsx bench/config.ts   # alone: an in-memory database and the real router on a loopback port
 *
 * bench/run.ts can call benchConfigAsCode against its production server instead.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { makeAgent, sendJson } from "./load";
import { round } from "./stats";

export interface ConfigBenchResult {
  flows: number;
  automations: number;
  documentBytes: number;
  firstApplyMs: number;
  secondApplyMs: number;
  diffMs: number;
  exportMs: number;
  exportApplyMs: number;
  secondAllUnchanged: boolean;
  exportAllUnchanged: boolean;
}

interface ConfigBenchOptions {
  base: string;
  auth: Record<string, string>;
  agent: http.Agent;
  log: (line: string) => void;
}

const FLOW_KEYS = 50;
const AUTOMATIONS = 200;

function draft(title: string) {
  return {
    entryScreenId: "ASK",
    screens: [
      {
        id: "ASK",
        title,
        body: "Two questions, then we are done.",
        fields: [
          { name: "full_name", type: "text", label: "Full name", required: true },
          {
            name: "topic",
            type: "radio",
            label: "Topic",
            required: true,
            options: [
              { id: "sales", title: "Sales" },
              { id: "support", title: "Support" },
            ],
          },
        ],
        submit_label: "Send",
      },
    ],
  };
}

/** Four step shapes in turn, so every kind the engine stores (but run_function: no function exists here) is in the document. */
function automation(i: number) {
  const key = `auto-${String(i).padStart(3, "0")}`;
  const steps = [
    [
      {
        send_reply: {
          text: `Reply ${i} for {{contact.name}}`,
          buttons: [
            { id: "yes", title: "Yes" },
            { id: "no", title: "No" },
          ],
        },
      },
    ],
    [{ send_reply: { text: "Which one?" } }, { wait_reply: { timeout_hours: 24, options: [{ id: "a", label: "First", keywords: ["1", "first"] }] } }],
    [{ send_flow: { flow: `flow-${String(i % FLOW_KEYS).padStart(2, "0")}`, body_text: "Open the form" } }],
    [{ delay: { minutes: 5 } }, { send_reply: { text: "Still there?" } }, { pause_replies: { reason: "handover" } }],
  ][i % 4]!;
  return { key, name: `Automation ${i}`, trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: [`word${i}`, `alt${i}`] }, steps };
}

export function benchDocument() {
  const flows = Array.from({ length: FLOW_KEYS }, (_, i) => {
    const key = `flow-${String(i).padStart(2, "0")}`;
    return [
      { key, name: `Form ${i}`, draft: draft(`Form ${i}`) },
      { key, name: `Formulario ${i}`, locale: "es", draft: draft(`Formulario ${i}`) },
    ];
  }).flat();
  return { version: 1, project: { routing_mode: "FLOWS" }, flows, automations: Array.from({ length: AUTOMATIONS }, (_, i) => automation(i)) };
}

type Diff = Array<{ action: string }>;

export async function benchConfigAsCode(o: ConfigBenchOptions): Promise<ConfigBenchResult> {
  const document = benchDocument();
  const headers = { ...o.auth, "content-type": "application/json" };
  const timed = async <T>(method: string, path: string, json?: unknown) => {
    const started = performance.now();
    const answer = await sendJson<T>(o.agent, { method, url: `${o.base}/api/v1${path}`, headers, timeoutMs: 300_000, ...(json !== undefined ? { json } : {}) });
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`${method} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
    return { body: answer.body, ms };
  };
  const first = await timed<{ diff: Diff }>("POST", "/config/apply", document);
  const created = first.body.diff.filter((item) => item.action === "create").length;
  o.log(`config: first apply ${round(first.ms, 0)} ms (${created} created)`);
  const second = await timed<{ diff: Diff }>("POST", "/config/apply", document);
  const diff = await timed<{ diff: Diff }>("POST", "/config/diff", document);
  const exported = await timed<unknown>("GET", "/config");
  const reapplied = await timed<{ diff: Diff }>("POST", "/config/apply", exported.body);
  const unchanged = (items: Diff) => items.every((item) => item.action === "unchanged");
  return {
    flows: document.flows.length,
    automations: document.automations.length,
    documentBytes: Buffer.byteLength(JSON.stringify(document)),
    firstApplyMs: round(first.ms, 0)!,
    secondApplyMs: round(second.ms, 0)!,
    diffMs: round(diff.ms, 0)!,
    exportMs: round(exported.ms, 0)!,
    exportApplyMs: round(reapplied.ms, 0)!,
    secondAllUnchanged: unchanged(second.body.diff),
    exportAllUnchanged: unchanged(reapplied.body.diff),
  };
}

/** Alone: the same app the tests build (in-memory PGlite, migrations, the real router) behind a loopback server. */
async function main() {
  const { openDatabase } = await import("@/lib/ports/db/open");
  const { buildRuntime, installRuntime } = await import("@/lib/server/runtime");
  const { dispatch } = await import("@/lib/api/router");
  const { createOrganization, ensureReferenceData } = await import("@/lib/domain/organizations");
  const { createProjectRow } = await import("@/lib/domain/projects");
  const { createApiKey } = await import("@/lib/domain/keys");
  const database = await openDatabase({ dataDir: "memory://" });
  await ensureReferenceData(database.db);
  const runtime = await buildRuntime(database, { settings: { allowPrivateNetwork: true } });
  installRuntime(runtime);
  const org = await createOrganization(database.db, { name: "Bench" });
  const project = await createProjectRow(database.db, org.id, { name: "Config bench" }, new Date());
  const { value } = await createApiKey(database.db, { organizationId: org.id, projectId: project.id, kind: "secret", name: "bench", scopes: ["*"] });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const response = await dispatch(request, url.pathname.slice("/api/v1".length) || "/", runtime);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const agent = makeAgent(1);
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await benchConfigAsCode({ base, auth: { authorization: `Bearer ${value}` }, agent, log: (line) => console.log(line) });
    console.log(JSON.stringify(result, null, 2));
    if (!result.secondAllUnchanged || !result.exportAllUnchanged) process.exitCode = 1;
  } finally {
    agent.destroy();
    server.close();
    installRuntime(null);
    await runtime.close();
  }
}

if (process.argv[1]?.endsWith("bench/config.ts")) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
