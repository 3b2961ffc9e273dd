/**
 * `npx tsx bench/post-stages.ts`: where the web's CPU per request goes on the way into POST /messages,
 * stage by stage (issue 35). Each row is one request shape that stops at a later stage; its web CPU
 * per request, minus the row above it, is what that stage costs (Postgres's CPU per request beside it):
 *   1. GET /api/v1/nope: the floor (Next.js and the router's 404);
 *   2. POST /api/v1/nope with a send's body: Next.js's handling of a POST with a body it never reads;
 *   3. GET /api/v1/limits: the key (kept: keys/auth-cache.ts), the request window and the quota;
 *   4. POST /api/v1/messages `{}`: the body read and parsed, refused with 400;
 *   5. a signed provider webhook: body, signature, the envelope and its job stored (no worker runs);
 *   6. POST /api/v1/messages to an unknown channel: parsed, counted, the send's read, 404;
 *   7. POST /api/v1/messages, a full send: a reply on the shared sandbox to a tester whose window is
 *      open, a new conversation and Idempotency-Key per request (its rows seeded by SQL, not the API).
 * STAGES_CPU_PROF=1 profiles the web (node --cpu-prof) into bench/results/stages-prof-<pid>/; each
 * stage's window (seconds since the web started) is printed for `bench/cpuprofile.ts`. STAGES_NODE_FLAGS
 * adds node flags to the web's command line (`--trace-gc`, `--max-semi-space-size=32`).
 * Needs the production build (`next build`),
 * Postgres on 127.0.0.1:5432 and Redis on 127.0.0.1:6379; a database `svc_stages_<pid>` is created and
 * dropped. Run it alone, as the bench.
 */
import path from "node:path";
import postgres from "postgres";
import { simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { cleanupStack, guardRun } from "./run-guard";
import { nodeFlagsOf, randomBase62 } from "./env";
import { closedLoop, makeAgent, type HttpRequest } from "./load";
import { CpuMeter, freePort, nextStartArgs, ROOT, spawnProc, stopProc, waitForWeb } from "./procs";
import { providerTextDelivery, sandboxNumber } from "./provider-inbound";

const SECONDS = 8;
/** Conversations seeded for the full send: pair pacing allows one message per recipient per 6 s. */
const SEEDED = 20_000;
const cpuProf = process.env.STAGES_CPU_PROF === "1";
const WARMUP_SECONDS = 2;
const CONNECTIONS = 50;

async function main(cleanups: ReturnType<typeof cleanupStack>) {
  const admin = postgres("postgres://postgres@127.0.0.1:5432/postgres", { max: 1, onnotice: () => {} });
  cleanups.push(() => admin.end());
  const dbName = `svc_stages_${process.pid}`;
  await admin.unsafe(`create database ${dbName}`);
  cleanups.push(async () => void (await admin.unsafe(`drop database if exists ${dbName} with (force)`)));
  const key = `svc_live_${randomBase62(32)}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profDir = path.join(ROOT, "bench", "results", `stages-prof-${process.pid}`);
  const webStarted = Date.now();
  const web = spawnProc(
    "web",
    [...(cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : []), ...nodeFlagsOf(process.env.STAGES_NODE_FLAGS), ...nextStartArgs(port)],
    {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`,
      REDIS_URL: "redis://127.0.0.1:6379/7",
      SVC_BOOTSTRAP_KEY: key,
      SVC_WORKER: "off",
      PLATFORM_A_APP_SECRET: simulatorAppSecret("PLATFORM_A"),
      PROVIDER_GRAPH_URL: "http://127.0.0.1:9/graph",
    },
    path.join(ROOT, "bench", "results", `stages-${process.pid}-web.log`),
  );
  cleanups.push(() => stopProc(web));
  const auth = { authorization: `Bearer ${key}` };
  await waitForWeb(web, base, auth);
  // A plan whose limits never bind (as the bench's): the organization moves to it by plain SQL, which the kept key forgets at its NOTIFY.
  const db = postgres(`postgres://postgres@127.0.0.1:5432/${dbName}`, { max: 1, onnotice: () => {} });
  cleanups.push(() => db.end());
  await db.unsafe(
    `insert into plans (id, name, requests_per_window, window_seconds, monthly_requests, media_retention_seconds) values ('stages', 'stages', 1000000000, 60, 1000000000, 86400)`,
  );
  await db.unsafe(`update organizations set plan_id = 'stages'`);
  await seedReplies(db, SEEDED);

  const json = { "content-type": "application/json" };
  const sendBody = JSON.stringify({ channel_id: "ch_unknown", conversation_id: "conv_unknown", text: "hello from the bench, a message of an ordinary length" });
  const stages: { name: string; ok: number; request: () => HttpRequest }[] = [
    { name: "GET /nope (floor)", ok: 404, request: () => ({ method: "GET", url: `${base}/api/v1/nope` }) },
    { name: "POST /nope with a body", ok: 404, request: () => ({ method: "POST", url: `${base}/api/v1/nope`, headers: json, body: sendBody }) },
    { name: "GET /limits", ok: 200, request: () => ({ method: "GET", url: `${base}/api/v1/limits`, headers: auth }) },
    {
      name: "POST /messages {} (400)",
      ok: 400,
      request: () => ({ method: "POST", url: `${base}/api/v1/messages`, headers: { ...auth, ...json }, body: "{}" }),
    },
    {
      name: "provider webhook (stored)",
      ok: 200,
      request: () => providerTextDelivery(base, sandboxNumber("+15550000000"), `1555${randomBase62(6)}`, `hello ${randomBase62(8)}`).request,
    },
    {
      name: "POST /messages, unknown channel (404)",
      ok: 404,
      request: () => ({ method: "POST", url: `${base}/api/v1/messages`, headers: { ...auth, ...json }, body: sendBody }),
    },
    {
      name: "POST /messages, a full send",
      ok: 200,
      request: () => {
        const n = (sent++ % SEEDED) + 1;
        const body = JSON.stringify({
          channel_id: "ch_sandbox",
          conversation_id: seededId("conv", n),
          text: "hello from the bench, a message of an ordinary length",
        });
        return { method: "POST", url: `${base}/api/v1/messages`, headers: { ...auth, ...json, "idempotency-key": `stages-${process.pid}-${n}-${sent}` }, body };
      },
    },
  ];
  let sent = 0;
  const cpu = new CpuMeter(() => ({ web: [web.pid] }));
  const agent = makeAgent(CONNECTIONS);
  cleanups.push(async () => agent.destroy());
  let floor: number | null = null;
  console.log(`${"stage".padEnd(40)} ${"req/s".padStart(7)}  web ms/request  floors  postgres ms/request`);
  for (const stage of stages) {
    const loop = (seconds: number) =>
      closedLoop({ agent, connections: CONNECTIONS, durationMs: seconds * 1000, maxRequests: 1e9, next: stage.request, okStatus: stage.ok });
    await loop(WARMUP_SECONDS);
    const from = (Date.now() - webStarted) / 1000;
    const before = cpu.snapshot();
    const result = await loop(SECONDS);
    const window = cpuProf ? `  [${from.toFixed(0)} s, ${((Date.now() - webStarted) / 1000).toFixed(0)} s]` : "";
    const perRequest = CpuMeter.msPerOperation([[before, cpu.snapshot()]], result.requests);
    const web = perRequest.web!;
    if (result.ok !== result.requests)
      throw new Error(`${stage.name}: ${result.ok} of ${result.requests} answered ${stage.ok}; first other: ${result.firstError}`);
    floor ??= web;
    console.log(
      `${stage.name.padEnd(40)} ${result.rps.toFixed(0).padStart(7)}  ${web.toFixed(2).padStart(14)}  ${(web / floor).toFixed(2).padStart(6)}  ${perRequest.postgres!.toFixed(2).padStart(18)}${window}`,
    );
  }
  if (cpuProf) console.log(`profiles in ${profDir} once the web has stopped: npx tsx bench/cpuprofile.ts <file> 60 <from> <to>`);
}

/** A seeded row's id, shaped like ours (prefix, 26 characters), so that it passes the id schemas. */
function seededId(prefix: string, n: number): string {
  return `${prefix}_01seed${String(n).padStart(20, "0")}`;
}

/**
 * `count` sandbox testers of the bootstrap project, each joined, with a conversation and a customer
 * message a minute old (the 24 h window open): what POST /messages needs to send a reply.
 */
async function seedReplies(db: postgres.Sql, count: number): Promise<void> {
  const id = (prefix: string) => `'${prefix}_01seed' || lpad(g::text, 20, '0')`;
  const phone = `'1555' || lpad(g::text, 8, '0')`;
  const series = `from projects p, generate_series(1, ${count}) g`;
  await db.begin(async (tx) => {
    await tx.unsafe(
      `insert into contacts (project_id, id, organization_id, channel_id, platform, phone) select p.id, ${id("ct")}, p.organization_id, 'ch_sandbox', 'PLATFORM_A', '+' || ${phone} ${series}`,
    );
    await tx.unsafe(
      `insert into conversations (id, project_id, contact_id, last_channel_id, started_at, last_message_at) select ${id("conv")}, p.id, ${id("ct")}, 'ch_sandbox', now(), now() ${series}`,
    );
    await tx.unsafe(`insert into sandbox_participants (id, project_id, channel_id, address) select ${id("sp")}, p.id, 'ch_sandbox', ${phone} ${series}`);
    await tx.unsafe(
      `insert into messages (id, project_id, conversation_id, contact_id, channel_id, direction, type, status, content, body, provider_timestamp, timestamp)
       select ${id("msg")}, p.id, ${id("conv")}, ${id("ct")}, 'ch_sandbox', 'inbound', 'text', 'delivered', 'hi', '{"text":"hi"}'::jsonb, now() - interval '1 minute', now() - interval '1 minute' ${series}`,
    );
  });
}

const cleanups = cleanupStack("stages");
const disarm = guardRun("stages", 5 * 60_000, () => cleanups.run());
main(cleanups)
  .then(
    () => 0,
    (error: unknown) => {
      console.error(error);
      return 1;
    },
  )
  .then(async (code) => {
    disarm();
    await cleanups.run();
    process.exit(code);
  });
