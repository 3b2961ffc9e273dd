/**
 * `npx tsx bench/post-stages.ts`: where the web's CPU per request goes on the way into POST /messages,
 * stage by stage (issue 35). Each row is one request shape that stops at a later stage; its web CPU
 * per request, minus the row above it, is what that stage costs:
 *   1. GET /api/v1/nope: the floor (Next.js and the router's 404);
 *   2. POST /api/v1/nope with a send's body: Next.js's handling of a POST with a body it never reads;
 *   3. GET /api/v1/limits: the key (kept: keys/auth-cache.ts), the request window and the quota;
 *   4. POST /api/v1/messages `{}`: the body read and parsed, refused with 400;
 *   5. a signed provider webhook: body, signature, the envelope and its job stored (no worker runs);
 *   6. POST /api/v1/messages to an unknown channel: parsed, counted, the send's read, 404.
 * A full send is the bench's own POST row (bench/rows.ts). Needs the production build (`next build`),
 * Postgres on 127.0.0.1:5432 and Redis on 127.0.0.1:6379; a database `svc_stages_<pid>` is created and
 * dropped. Run it alone, as the bench.
 */
import path from "node:path";
import postgres from "postgres";
import { simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { cleanupStack, guardRun } from "./run-guard";
import { randomBase62 } from "./env";
import { closedLoop, makeAgent, send, waitUntil, type HttpRequest } from "./load";
import { CpuMeter, freePort, ROOT, spawnProc, stopProc } from "./procs";
import { providerTextDelivery, sandboxNumber } from "./provider-inbound";

const SECONDS = 8;
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
  const web = spawnProc(
    "web",
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
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
  const up = await waitUntil(
    async () => {
      try {
        const r = await send(undefined, { method: "GET", url: `${base}/api/v1/identity`, headers: auth, timeoutMs: 2000 });
        return r.status === 200 ? r : null;
      } catch {
        return null;
      }
    },
    90_000,
    250,
  );
  if (!up) throw new Error(`next start did not answer within 90 s:\n${web.tail()}`);
  // A plan whose limits never bind (as the bench's): the organization moves to it by plain SQL, which the kept key forgets at its NOTIFY.
  const db = postgres(`postgres://postgres@127.0.0.1:5432/${dbName}`, { max: 1, onnotice: () => {} });
  cleanups.push(() => db.end());
  await db.unsafe(
    `insert into plans (id, name, requests_per_window, window_seconds, monthly_requests, media_retention_seconds) values ('stages', 'stages', 1000000000, 60, 1000000000, 86400)`,
  );
  await db.unsafe(`update organizations set plan_id = 'stages'`);

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
  ];
  const cpu = new CpuMeter(() => ({ web: [web.pid] }));
  const agent = makeAgent(CONNECTIONS);
  cleanups.push(async () => agent.destroy());
  let floor: number | null = null;
  console.log(`${"stage".padEnd(40)} ${"req/s".padStart(7)}  web ms/request  floors`);
  for (const stage of stages) {
    const loop = (seconds: number) =>
      closedLoop({ agent, connections: CONNECTIONS, durationMs: seconds * 1000, maxRequests: 1e9, next: stage.request, okStatus: stage.ok });
    await loop(WARMUP_SECONDS);
    const before = cpu.snapshot();
    const result = await loop(SECONDS);
    const web = CpuMeter.msPerOperation([[before, cpu.snapshot()]], result.requests).web!;
    if (result.ok !== result.requests)
      throw new Error(`${stage.name}: ${result.ok} of ${result.requests} answered ${stage.ok}; first other: ${result.firstError}`);
    floor ??= web;
    console.log(`${stage.name.padEnd(40)} ${result.rps.toFixed(0).padStart(7)}  ${web.toFixed(2).padStart(14)}  ${(web / floor).toFixed(2).padStart(6)}`);
  }
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
