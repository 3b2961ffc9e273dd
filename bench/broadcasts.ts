/**
 * Broadcasts in `npm run bench` (issue 19): a dedicated number set to 1,000 messages/s at the
 * simulator (level HIGH, so the channel reads 1,000/s at connect), one APPROVED template, then a
 * 1,000-recipient and a 100,000-recipient broadcast to opted-in contacts. Measured: the send rate the
 * simulator accepted while the big one ran (target ≥ 95 % of 1,000/s), and the worker's sampled
 * peak RSS during each broadcast (the big one within 10 % of the small one: batches are streamed).
 * Contacts, opt-ins and recipients are written by SQL (the API would take minutes for 100,000 rows);
 * the broadcast itself, its template and its send go through the API.
 */
import type { BenchProject } from "./project";
import type { Sql } from "postgres";
import { memoryOf } from "./procs";
import { sendJson, sleep } from "./load";
import { round } from "./stats";
import type { PhaseFn } from "./report";

export interface BroadcastBenchResult {
  throughput: number;
  /** `broadcasts` of `recipients` each, sent one after another on a fresh worker. */
  small: { recipients: number; broadcasts: number; seconds: number; peakRssMiB: number | null };
  large: {
    recipients: number;
    seconds: number;
    peakRssMiB: number | null;
    accepted: number;
    refused: number;
    ratePerSecond: number | null;
    completed: boolean;
    /** Seconds since the send, with the accepted and refused counts then (every 250 ms), for where the rate dipped. */
    timeline: [seconds: number, accepted: number, refused: number][];
  };
  rssRatio: number | null;
}

interface BroadcastBenchOptions extends BenchProject {
  organizationId: string;
  runId: string;
  workerPid: () => number | null;
  /** Stops the worker and starts a fresh one (each memory measurement starts from a new process). */
  restartWorker: () => Promise<void>;
  large: number;
  log: (line: string) => void;
  phase: PhaseFn;
}

const THROUGHPUT = 1000;
const SMALL = 1000;

/** An API call (`/api/v1/...`) or, for `/simulator/...`, one to the simulator. */
async function call<T>(o: BroadcastBenchOptions, method: string, path: string, json?: unknown, idempotent = false): Promise<T> {
  const headers = { ...o.auth, ...(idempotent ? { "idempotency-key": `bench-${o.runId}-${method}-${path}-${Math.random()}` } : {}) };
  const url = path.startsWith("/simulator/") ? `${o.simulator}${path.slice("/simulator".length)}` : `${o.base}${path}`;
  const r = await sendJson<T>(o.agent, { method, url, headers, ...(json !== undefined ? { json } : {}) });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function throughputStats(o: BroadcastBenchOptions, phoneNumberId: string): Promise<{ accepted: number; refused: number }> {
  return call(o, "GET", `/simulator/control/numbers/throughput?phone_number_id=${phoneNumberId}`);
}

async function setUp(o: BroadcastBenchOptions) {
  const phoneNumberId = `pn-bench-bc-${o.runId}`;
  await call(o, "POST", "/simulator/control/numbers/throughput", { phone_number_id: phoneNumberId, messages_per_second: THROUGHPUT });
  const channel = await call<{ id: string }>(o, "POST", "/api/v1/channels", {
    platform: "PLATFORM_A",
    credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-bench-bc-${o.runId}`, access_token: "bench" },
  });
  const template = await call<{ id: string; meta_template_id: string }>(o, "POST", "/api/v1/templates", {
    channel_id: channel.id,
    name: "bench_broadcast",
    language: "en_US",
    category: "MARKETING",
    components: [{ type: "BODY", text: "Hi {{1}}, this is the bench broadcast.", example: { body_text: [["Ana"]] } }],
  });
  await call(o, "POST", `/simulator/templates/${template.meta_template_id}/review`, { status: "APPROVED" });
  for (let i = 0; i < 100; i++) {
    const t = await call<{ status: string }>(o, "GET", `/api/v1/templates/${template.id}`);
    if (t.status === "APPROVED") return { phoneNumberId, channelId: channel.id, templateId: template.id };
    await sleep(100);
  }
  throw new Error("the bench template was not approved within 10 s");
}

/** `count` opted-in contacts (numbers 1888<run-salt><seq>1: never the simulator's undeliverable ...0000) and a broadcast to them. */
async function seedBroadcast(o: BroadcastBenchOptions, s: { channelId: string; templateId: string }, count: number, salt: string): Promise<string> {
  const broadcast = await call<{ id: string }>(
    o,
    "POST",
    "/api/v1/broadcasts",
    { name: `bench ${count}`, channel_id: s.channelId, template: { id: s.templateId } },
    true,
  );
  const prefix = `1888${salt}`;
  const tag = `${o.runId}${salt}`;
  await o.sql.begin(async (tx) => {
    await tx`insert into contact_identities (id, contact_id, organization_id, kind, value)
      select 'ci_' || ${tag} || lpad(g::text, 7, '0'), 'ct_' || ${tag} || lpad(g::text, 7, '0'), ${o.organizationId}, 'phone', ${prefix} || lpad(g::text, 7, '0') || '1'
      from generate_series(1, ${count}) g`;
    await tx`insert into contacts (project_id, id, organization_id, channel_id, platform, phone)
      select ${o.projectId}, 'ct_' || ${tag} || lpad(g::text, 7, '0'), ${o.organizationId}, ${s.channelId}, 'PLATFORM_A', '+' || ${prefix} || lpad(g::text, 7, '0') || '1'
      from generate_series(1, ${count}) g`;
    await tx`insert into opt_ins (id, project_id, contact_id, status, source, opted_in_at)
      select 'opt_' || ${tag} || lpad(g::text, 7, '0'), ${o.projectId}, 'ct_' || ${tag} || lpad(g::text, 7, '0'), 'active', 'bench', now()
      from generate_series(1, ${count}) g`;
    await tx`insert into broadcast_recipients (id, broadcast_id, project_id, "to", contact_id, parameters, status)
      select 'bcr_' || ${tag} || lpad(g::text, 7, '0'), ${broadcast.id}, ${o.projectId}, ${prefix} || lpad(g::text, 7, '0') || '1',
             'ct_' || ${tag} || lpad(g::text, 7, '0'), '{"1": "there"}'::jsonb, 'pending'
      from generate_series(1, ${count}) g`;
  });
  return broadcast.id;
}

/**
 * A production server's autovacuum analyzes a table once a tenth of it has changed; on a server
 * running without it (this machine's) the planner would go on costing these tables as empty and scan
 * them whole for every batch. The bench stands in for it after its bulk loads.
 */
async function analyzeUnlessAutovacuum(sql: Sql): Promise<void> {
  const [row] = await sql<{ autovacuum: string }[]>`show autovacuum`;
  if (row?.autovacuum !== "on") await sql`analyze contact_identities, contacts, opt_ins, broadcast_recipients, messages, conversations`;
}

/** Sends one broadcast and watches it: the simulator's accepted count and the worker's RSS, sampled every 250 ms. */
async function run(o: BroadcastBenchOptions, phoneNumberId: string, id: string, count: number, timeoutS: number, waitForCompleted = true) {
  const start = await throughputStats(o, phoneNumberId);
  const t0 = Date.now();
  await call(o, "POST", `/api/v1/broadcasts/${id}/send`, {}, true);
  let peak: number | null = null;
  const samples: { t: number; accepted: number; refused: number }[] = [];
  let status = "SENDING";
  while (Date.now() - t0 < timeoutS * 1000) {
    await sleep(count <= SMALL ? 100 : 250);
    const pid = o.workerPid();
    const mem = pid ? memoryOf(pid) : null;
    if (mem) peak = Math.max(peak ?? 0, mem.rssMiB);
    const now = await throughputStats(o, phoneNumberId);
    samples.push({ t: Date.now(), accepted: now.accepted - start.accepted, refused: now.refused - start.refused });
    if (now.accepted - start.accepted >= count) {
      if (!waitForCompleted) break;
      status = (await call<{ status: string }>(o, "GET", `/api/v1/broadcasts/${id}`)).status;
      if (status !== "SENDING") break;
    }
  }
  const end = await throughputStats(o, phoneNumberId);
  // The rate over the sending itself: from the first accepted message to the last.
  const first = samples.find((x) => x.accepted > 0);
  const last = samples.find((x) => x.accepted >= count) ?? samples.at(-1);
  const rate = first && last && last.t > first.t ? (last.accepted - first.accepted) / ((last.t - first.t) / 1000) : null;
  return {
    seconds: round((Date.now() - t0) / 1000, 1)!,
    peakRssMiB: peak === null ? null : round(peak, 0),
    accepted: end.accepted - start.accepted,
    refused: end.refused - start.refused,
    ratePerSecond: rate === null ? null : round(rate, 0),
    completed: status === "COMPLETED",
    timeline: samples.map((x): [number, number, number] => [round((x.t - t0) / 1000, 2)!, x.accepted, x.refused]),
  };
}

/**
 * Memory like with like: the large broadcast against a series of 1,000-recipient broadcasts carrying
 * as many messages in all (up to 100 of them), each on a freshly started worker, both at the same
 * paced rate for about as long. A worker's heap grows for a while under any sustained load, so a
 * single 1,000-recipient run (about a second) against a 100-second one would measure the duration;
 * this measures what the issue asks: whether memory grows with the size of a broadcast.
 */
export async function benchBroadcasts(o: BroadcastBenchOptions): Promise<BroadcastBenchResult> {
  const s = await o.phase("broadcasts set-up", () => setUp(o));
  const seriesCount = Math.min(100, Math.max(1, Math.floor(o.large / SMALL)));
  const series = await o.phase(`broadcasts set-up (${seriesCount} × ${SMALL.toLocaleString("en-US")} recipients)`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < seriesCount; i++) ids.push(await seedBroadcast(o, s, SMALL, String(100 + i)));
    await analyzeUnlessAutovacuum(o.sql);
    return ids;
  });
  await o.restartWorker();
  const small = await o.phase(
    `broadcasts of 1,000 (${seriesCount} in turn)`,
    async () => {
      const runs = [];
      // The next one starts once the provider has every message of this one (its statuses still coming in).
      for (const id of series) runs.push(await run(o, s.phoneNumberId, id, SMALL, 60, false));
      return runs;
    },
    (runs) => runs.reduce((n, r) => n + r.accepted, 0),
  );
  const smallPeak = small.reduce<number | null>((max, r) => (r.peakRssMiB === null ? max : Math.max(max ?? 0, r.peakRssMiB)), null);
  const smallSeconds = round(
    small.reduce((sum, r) => sum + r.seconds, 0),
    1,
  )!;
  o.log(
    `${seriesCount} broadcasts of 1,000 in turn: ${small.reduce((n, r) => n + r.accepted, 0)} accepted in ${smallSeconds} s, worker RSS peak ${smallPeak} MiB`,
  );
  const largeId = await o.phase(`broadcasts set-up (${o.large.toLocaleString("en-US")} recipients)`, async () => {
    const id = await seedBroadcast(o, s, o.large, "2");
    await analyzeUnlessAutovacuum(o.sql);
    return id;
  });
  await o.restartWorker();
  const large = await o.phase(
    `broadcast of ${o.large.toLocaleString("en-US")}`,
    () => run(o, s.phoneNumberId, largeId, o.large, Math.ceil(o.large / 500) + 60),
    (r) => r.accepted,
  );
  o.log(
    `broadcast of ${o.large}: ${large.accepted} accepted at ${large.ratePerSecond}/s, ${large.refused} refused (130429)${refusedWhen(large.timeline)}, worker RSS peak ${large.peakRssMiB} MiB`,
  );
  return {
    throughput: THROUGHPUT,
    small: { recipients: SMALL, broadcasts: seriesCount, seconds: smallSeconds, peakRssMiB: smallPeak },
    large: { recipients: o.large, ...large },
    rssRatio: smallPeak && large.peakRssMiB ? round(large.peakRssMiB / smallPeak, 2) : null,
  };
}

/** " at 12.3 s (+5), 40.1 s (+17)": when the simulator's refused count grew, from the timeline. */
function refusedWhen(timeline: [number, number, number][]): string {
  const steps = timeline.flatMap(([t, , refused], i) => (i > 0 && refused > timeline[i - 1]![2] ? [`${t} s (+${refused - timeline[i - 1]![2]})`] : []));
  return steps.length ? ` at ${steps.join(", ")}` : "";
}
