import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_LIMITS } from "@/lib/ports/sandbox/types";

/**
 * The lazy prelude groups (URL, encoding, Request/Response) across the runs of one worker
 * (lib/ports/sandbox/worker): a session preloads the groups the previous run used, with their globals
 * still lazy, and reports which ones its own run used. A group preloaded for a run that never reads it
 * is not reported, so the next session does not preload it again (before, a worker whose warm-up read
 * URL preloaded it for every later run). Loaded directly, as the worker loads them.
 */
const worker = (file: string) => pathToFileURL(path.join(process.cwd(), "lib", "ports", "sandbox", "worker", file)).href;

interface Session {
  usedGroups: Set<string>;
  dispose(): string | null;
}
interface RunAnswer {
  status: string;
  resultJson: string | null;
  error: string | null;
}
type SessionClass = new (engine: unknown, preload?: Iterable<string>) => Session;
type RunJob = (session: Session, job: unknown, io: unknown) => Promise<RunAnswer>;

let engine: unknown;
let RunSession: SessionClass;
let runJob: RunJob;

beforeAll(async () => {
  const { loadEngine } = (await import(/* @vite-ignore */ worker("engine.mjs"))) as { loadEngine: (bytes: number) => Promise<unknown> };
  engine = await loadEngine(DEFAULT_SANDBOX_LIMITS.memoryBytes);
  ({ RunSession } = (await import(/* @vite-ignore */ worker("session.mjs"))) as { RunSession: SessionClass });
  ({ runJob } = (await import(/* @vite-ignore */ worker("jobs.mjs"))) as { runJob: RunJob });
});

/** One run of `code` in a session that preloaded `preload`; the session's answer and the groups it reports. */
async function runIn(preload: string[], code: string, runtime: "PLAIN" | "WFP" = "PLAIN") {
  const session = new RunSession(engine, preload);
  const job = { kind: "run", code, runtime, eventJson: '{"n":1}', envJson: "{}", contextJson: "{}", limits: DEFAULT_SANDBOX_LIMITS };
  const io = { runId: 1, shared: new Float64Array(3), post: () => {}, bridgeless: false };
  try {
    const answer = await runJob(session, job, io);
    expect(answer.error).toBeNull();
    return { result: JSON.parse(answer.resultJson!) as unknown, used: [...session.usedGroups].sort() };
  } finally {
    expect(session.dispose()).toBeNull();
  }
}

const readsUrl = "export default async () => new URL('https://a.example/x?q=1').searchParams.get('q');";
const trivial = "export default async (event) => ({ n: event.n });";

describe("lazy prelude groups across a worker's runs", () => {
  it("reports a group the run evaluated on demand", async () => {
    expect(await runIn([], readsUrl)).toEqual({ result: "1", used: ["url"] });
  });

  it("does not report a preloaded group the run never read, so it is not preloaded again", async () => {
    expect(await runIn(["url"], trivial)).toEqual({ result: { n: 1 }, used: [] });
    expect(await runIn(["http"], trivial)).toEqual({ result: { n: 1 }, used: [] });
  });

  it("reports a preloaded group once the run reads one of its globals, which work as if loaded then", async () => {
    expect(await runIn(["url"], readsUrl)).toEqual({ result: "1", used: ["url"] });
    const encodes = "export default async () => Array.from(new TextEncoder().encode('é'));";
    expect(await runIn(["encoding", "url"], encodes)).toEqual({ result: [195, 169], used: ["encoding"] });
  });

  it("keeps a preloaded group's globals lazy until read, and assignable before", async () => {
    const lazy = "export default async () => typeof Object.getOwnPropertyDescriptor(globalThis, 'URL').get;";
    expect(await runIn(["url"], lazy)).toEqual({ result: "function", used: [] });
    const replaced = "export default async () => { globalThis.URL = 'mine'; return URL; };";
    expect(await runIn(["url"], replaced)).toEqual({ result: "mine", used: [] });
  });

  it("runs a WFP function with http preloaded (its Request and Response), and reports http", async () => {
    const wfp = "export default { async fetch(request) { const event = await request.json(); return Response.json({ n: event.n }); } };";
    expect(await runIn(["http"], wfp, "WFP")).toEqual({ result: { n: 1 }, used: ["http"] });
    expect(await runIn([], wfp, "WFP")).toEqual({ result: { n: 1 }, used: ["encoding", "http", "url"] });
  });

  it("compiles console, the timers and crypto only for a run that reads them (a run's fresh runtime is mostly the eager prelude's compile)", async () => {
    const untouched =
      "export default async () => ['console', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'crypto'].map((name) => typeof Object.getOwnPropertyDescriptor(globalThis, name).get);";
    expect(await runIn([], untouched)).toEqual({ result: Array(6).fill("function"), used: [] });
    expect(await runIn([], "export default async () => { console.log('hi'); return typeof console.log; };")).toEqual({ result: "function", used: ["console"] });
    const timer =
      "export default async () => { const id = setTimeout(() => {}, 1); clearTimeout(id); return await new Promise((resolve) => setTimeout(() => resolve('fired'), 1)); };";
    expect(await runIn([], timer)).toEqual({ result: "fired", used: ["timers"] });
    expect(await runIn(["timers"], timer)).toEqual({ result: "fired", used: ["timers"] });
    expect(await runIn([], "export default async () => crypto.randomUUID().length;")).toEqual({ result: 36, used: ["crypto"] });
  });

  it("leaves nothing of one run in the next on the same worker: globals, replaced built-ins and lazy globals are the prelude's again", async () => {
    const tamper =
      "export default async () => { globalThis.leaked = 1; console.log = () => {}; Array.prototype.push = null; globalThis.setTimeout = 'mine'; crypto.x = 1; return 'tampered'; };";
    const look = "export default async () => [typeof leaked, typeof console.log, typeof [].push, typeof setTimeout, crypto.x === undefined];";
    expect((await runIn([], tamper)).result).toBe("tampered");
    // The next session preloads what the tampering run used, as a worker's next session does.
    expect((await runIn(["console", "crypto", "timers"], look)).result).toEqual(["undefined", "function", "function", "function", true]);
  });
});
