// @ts-check
/**
 * A sandbox worker thread (lib/ports/sandbox/pool.ts starts it by absolute path): one QuickJS
 * WebAssembly module, one job at a time, a fresh QuickJS runtime per job. It imports only
 * quickjs-emscripten and Node built-ins, so it runs the same under Next.js, tsx and vitest.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadEngine } from "./engine.mjs";
import { failureText } from "./errors.mjs";
import { checkJob, runJob } from "./jobs.mjs";
import { RunSession } from "./session.mjs";

/** @typedef {import("./protocol.mjs").ToWorker} ToWorker */
/** @typedef {import("./protocol.mjs").FromWorker} FromWorker */
/** @typedef {import("./protocol.mjs").WorkerJob} WorkerJob */
/** @typedef {import("./protocol.mjs").RunAnswer} RunAnswer */
/** @typedef {import("./protocol.mjs").CheckAnswer} CheckAnswer */

const port = parentPort;
if (!port) throw new Error("sandbox-worker.mjs runs as a worker thread");

const { memoryBytes, sharedBuffer } = /** @type {{ memoryBytes: number, sharedBuffer: SharedArrayBuffer }} */ (workerData);
const shared = new Float64Array(sharedBuffer);
const engine = await loadEngine(memoryBytes);

/** The next run's runtime, prepared while the worker is idle so a job starts at once. */
let spare = /** @type {RunSession | null} */ (null);
/** The running job, to which host answers are routed. */
let current = /** @type {{ id: number, session: RunSession } | null} */ (null);

/** @param {FromWorker} message */
function post(message) {
  port?.postMessage(message);
}

/**
 * @param {WorkerJob} job
 * @param {unknown} error
 * @returns {RunAnswer | CheckAnswer}
 */
function engineFailureAnswer(job, error) {
  const message = failureText({ code: "uncaught_exception", detail: `the sandbox could not start the run (${String(error)})` });
  if (job.kind === "check") return { ok: false, diagnostics: [{ line: 1, column: 1, message }] };
  return { status: "error", resultJson: null, error: message, cpu_ms: 0, sub_requests: 0, duration_ms: 0 };
}

/**
 * @param {number} id
 * @param {WorkerJob} job
 * @param {Float64Array} sharedSlots
 * @param {(message: FromWorker) => void} send
 * @returns {Promise<{ answer: RunAnswer | CheckAnswer, session: RunSession | null }>}
 */
async function execute(id, job, sharedSlots, send) {
  let session = spare;
  spare = null;
  try {
    session ??= new RunSession(engine);
  } catch (error) {
    return { answer: engineFailureAnswer(job, error), session: null };
  }
  current = { id, session };
  const io = { runId: id, shared: sharedSlots, post: send, bridgeless: false };
  try {
    const answer = job.kind === "run" ? await runJob(session, job, io) : await checkJob(session, job, io);
    return { answer, session };
  } finally {
    current = null;
  }
}

/**
 * Disposes the finished run's runtime and prepares the next one. Either failing means the
 * WebAssembly module is no longer sound.
 * @param {RunSession | null} finished
 * @returns {string | null} why the worker must be replaced
 */
function recycle(finished) {
  if (!finished) return "the sandbox engine could not create a runtime";
  if (finished.brokenBy) return finished.brokenBy;
  const broken = finished.dispose();
  if (broken) return broken;
  try {
    spare = new RunSession(engine, finished.usedGroups);
    return null;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

/**
 * The first runs of a fresh module compile and tier up its WebAssembly code; doing a few here keeps
 * that cost out of the first real runs' latency.
 */
async function warmUp() {
  const limits = { cpuMs: 1000, wallMs: 5000, memoryBytes, subRequests: 0, logLines: 10, logBytes: 1024, resultBytes: 1024 };
  const code = "export default async function (event) { console.log(new URL('https://a.example/?q=1').searchParams.get('q')); return { ok: event.ok }; }";
  const scratch = new Float64Array(2);
  for (let round = 0; round < 3; round++) {
    const checked = await execute(0, { kind: "check", code, limits }, scratch, () => {});
    recycle(checked.session);
    const ran = await execute(
      0,
      { kind: "run", code, runtime: "PLAIN", eventJson: '{"ok":true}', envJson: "{}", contextJson: "{}", limits },
      scratch,
      () => {},
    );
    const broken = recycle(ran.session);
    if (broken) throw new Error(`the sandbox engine failed its warm-up run: ${broken}`);
  }
}

/**
 * @param {number} id
 * @param {WorkerJob} job
 */
async function handleJob(id, job) {
  const { answer, session } = await execute(id, job, shared, post);
  post({ type: "done", id, answer });
  const broken = recycle(session);
  post(broken ? { type: "broken", reason: broken } : { type: "idle" });
}

await warmUp();

port.on("message", (/** @type {ToWorker} */ message) => {
  if (message.type === "job") void handleJob(message.id, message.job);
  else if (message.type === "host-result" && current?.id === message.id) current.session.receiveHostResult(message);
});
post({ type: "ready" });
