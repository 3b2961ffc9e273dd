/**
 * 2. Postgres restarted under inbound load. Signed provider deliveries (unique message ids) at a fixed
 * rate while the private Postgres restarts three times in a row (`pg_ctl restart -m fast`), then once
 * more with 3 s of no server at all (stop, wait, start: a restart on a loaded machine took 3.6 s and
 * showed requests waiting over 10 s, so the suite now makes that case every time). A delivery
 * the endpoint refuses (any non-200, e.g. 503 database_unavailable, or no answer) is sent again later,
 * byte for byte, as the provider does. An API probe (GET /messages) runs beside it. At the end every
 * message must be stored once and its message.received delivered; the web and worker processes must
 * be the same, still running processes; no answer may be a 500 or take longer than 5 s.
 */
import { performance } from "node:perf_hooks";
import { openLoop, send, sleep, waitUntil, type HttpRequest } from "../../../bench/load";
import { summarize } from "../../../bench/stats";
import type { FaultContext } from "../context";
import { diagnose, logCounts, logLine, Tally } from "../evidence";
import { ms, type Report } from "../report";

const RATE = 20;
const SECONDS = 25;
const RESTARTS = 3;
const FIRST_RESTART_S = 4;
const RESTART_GAP_S = 5;
/** After the fast restarts: this long with Postgres down. */
const OUTAGE_MS = 3_000;
/** A request without an answer after this is abandoned (and resent); SVC_FAULTS_REQUEST_TIMEOUT_MS raises it to see how long a hang lasts. */
const REQUEST_TIMEOUT_MS = Number(process.env.SVC_FAULTS_REQUEST_TIMEOUT_MS || 10_000);
const MAX_LATENCY_MS = 5_000;
/** The provider's resends: 1 s, 2 s, 3 s, 3 s, … apart, at most this many attempts per message. */
const MAX_ATTEMPTS = 20;
/**
 * How long after the load the suite waits for every message. A job whose own failure could not be
 * written while Postgres was down stays active until pg-boss expires it (ingest.process: 60 s) and its
 * next monitor pass (every 60 s) queues it again, so a message can legitimately arrive ~2 min late.
 */
const SETTLE_DEADLINE_MS = 150_000;
/** Messages slower than this end to end are listed with where they waited. */
const LATE_MS = 30_000;

interface Delivery {
  i: number;
  id: string;
  text: string;
  request: HttpRequest;
  attempts: number;
  accepted: boolean;
  firstSentAt: number;
}

export async function postgresScenario(ctx: FaultContext, r: Report): Promise<void> {
  const { stack, pg } = ctx;
  await stack.setWebhook(ctx.fast.url);
  const webPid = stack.web.pid;
  const workerPid = stack.worker.pid;
  const prefix = `${ctx.token}pg-`;
  const count = RATE * SECONDS;
  const deliveries: Delivery[] = [];
  let started = Date.now();
  const inbound = new Tally(() => started, MAX_LATENCY_MS);
  const probe = new Tally(() => started, MAX_LATENCY_MS);
  const resendUntil = Date.now() + SECONDS * 1000 + SETTLE_DEADLINE_MS;

  async function deliver(d: Delivery): Promise<void> {
    while (!d.accepted && d.attempts < MAX_ATTEMPTS && Date.now() < resendUntil) {
      d.attempts++;
      const t = performance.now();
      try {
        const a = await send(stack.agent, { ...d.request, timeoutMs: REQUEST_TIMEOUT_MS });
        inbound.record(`provider delivery ${d.i} attempt ${d.attempts}`, a.status, a.ms, a.body);
        if (a.status === 200) d.accepted = true;
      } catch (error) {
        inbound.record(
          `provider delivery ${d.i} attempt ${d.attempts}`,
          `no answer (${error instanceof Error ? error.message.split(":")[0] : error})`,
          performance.now() - t,
        );
      }
      if (!d.accepted) await sleep(1000 * Math.min(d.attempts, 3));
    }
  }

  // The API beside the ingest path: every answer a 200 or a 503, never slow.
  let loadRunning = true;
  const prober = (async () => {
    for (let i = 0; loadRunning && i < 200; i++) {
      const t = performance.now();
      try {
        const a = await send(stack.agent, { method: "GET", url: `${stack.base}/api/v1/messages?limit=1`, headers: stack.auth, timeoutMs: REQUEST_TIMEOUT_MS });
        probe.record("GET /api/v1/messages", a.status, a.ms, a.body);
      } catch (error) {
        probe.record("GET /api/v1/messages", `no answer (${error instanceof Error ? error.message.split(":")[0] : error})`, performance.now() - t);
      }
      await sleep(400);
    }
  })();

  const logsBefore = logCounts(ctx);
  started = Date.now();
  const restarts: string[] = [];
  const restarter = (async () => {
    await sleep(FIRST_RESTART_S * 1000);
    for (let k = 1; k <= RESTARTS; k++) {
      const took = await pg.restart();
      restarts.push(`restart ${k} (pg_ctl restart -m fast) at ${((Date.now() - started) / 1000).toFixed(1)} s took ${took} ms`);
      await sleep(RESTART_GAP_S * 1000);
    }
    const at = ((Date.now() - started) / 1000).toFixed(1);
    const outage = await pg.outage(OUTAGE_MS);
    restarts.push(`outage at ${at} s: pg_ctl stop -m fast (${outage.stopMs} ms), ${OUTAGE_MS} ms down, pg_ctl start (${outage.startMs} ms)`);
  })();

  r.info(
    `sending ${count} signed provider deliveries at ${RATE}/s for ${SECONDS} s; Postgres restarts ${RESTARTS}× (pg_ctl restart -m fast) from ${FIRST_RESTART_S} s, ${RESTART_GAP_S} s apart, then is down ${OUTAGE_MS / 1000} s`,
  );
  const load = openLoop({
    ratePerSecond: RATE,
    count,
    maxDurationMs: SECONDS * 1000 + 2000,
    maxInFlight: 400,
    fire: (i) => {
      const text = `${prefix}${i}`;
      const { id, request } = stack.inbound(stack.testers[i % stack.testers.length]!, text);
      const d: Delivery = { i, id, text, request, attempts: 0, accepted: false, firstSentAt: Date.now() };
      deliveries.push(d);
      return deliver(d);
    },
  });
  await restarter.catch((error: unknown) => r.fail(`pg_ctl restart failed: ${error instanceof Error ? error.message : error}`));
  const loaded = await load;
  loadRunning = false;
  await prober;
  for (const line of restarts) r.info(line);
  r.info(`provider deliveries: ${inbound.line()}`);
  for (const line of inbound.slow.slice(0, 10)) r.info(`  slow or unanswered: ${line}`);
  r.info(`API probe during the restarts: ${probe.line()}`);
  for (const line of probe.slow.slice(0, 10)) r.info(`  slow or unanswered: ${line}`);
  const resent = deliveries.filter((d) => d.attempts > 1).length;
  const accepted = deliveries.filter((d) => d.accepted);
  r.info(`sent ${deliveries.length} messages (${loaded.dropped} not sent: in-flight cap); ${resent} needed a resend; ${accepted.length} accepted (200)`);
  r.check(loaded.dropped === 0, `${loaded.dropped} scheduled deliveries were not sent (the server had 400 unanswered)`);
  r.check(
    accepted.length === deliveries.length,
    `${deliveries.length - accepted.length} deliveries were refused ${MAX_ATTEMPTS} times or until the deadline (the provider would drop them)`,
  );

  // Stored and delivered, within a bounded wait.
  const ids = accepted.map((d) => d.id);
  const storedCount = async () =>
    Number((await stack.q<{ n: string }>("select count(*) as n from messages where channel_id = 'ch_sandbox' and platform_message_id = any($1)", [ids]))[0]!.n);
  const delivered = () => accepted.filter((d) => ctx.fast.tokens.has(d.text)).length;
  const settledAt = await waitUntil(
    async () => ((await storedCount()) === ids.length && delivered() === ids.length ? Date.now() : null),
    SETTLE_DEADLINE_MS,
    500,
  );
  const stored = await storedCount();
  r.info(
    `stored: ${stored}/${ids.length} messages; delivered (message.received at the receiver): ${delivered()}/${ids.length}${settledAt ? `, all ${((settledAt - started) / 1000).toFixed(1)} s after the load began` : ` after waiting ${SETTLE_DEADLINE_MS / 1000} s`}`,
  );
  // Provider POST → message.received at the receiver, from the first send of each message.
  const endToEnd = accepted.map((d) => ({ d, ms: (ctx.fast.tokens.get(d.text) ?? Number.POSITIVE_INFINITY) - d.firstSentAt })).sort((a, b) => b.ms - a.ms);
  const e2e = summarize(endToEnd.map((x) => x.ms));
  r.info(
    `send → webhook: p50 ${ms(e2e.p50)}, p99 ${ms(e2e.p99)}, max ${ms(e2e.max)}; slowest: ${endToEnd
      .slice(0, 5)
      .map(
        (x) => `#${x.d.i} (sent at +${((x.d.firstSentAt - started) / 1000).toFixed(1)} s, ${x.d.attempts} attempt${x.d.attempts > 1 ? "s" : ""}) ${ms(x.ms)}`,
      )
      .join("; ")}`,
  );
  const late = endToEnd.filter((x) => x.ms > LATE_MS && Number.isFinite(x.ms));
  if (late.length) {
    r.info(
      `note: ${late.length} messages reached the receiver more than ${LATE_MS / 1000} s after their first POST (recovered through pg-boss expiry, not lost):`,
    );
    for (const line of await diagnose(
      ctx,
      late.slice(0, 3).map((x) => x.d),
    ))
      r.info(`  late: ${line}`);
  }
  const missing = accepted.filter((d) => !ctx.fast.tokens.has(d.text));
  for (const line of await diagnose(ctx, missing.slice(0, 5))) r.info(`  not delivered: ${line}`);
  r.check(
    stored === ids.length,
    `${ids.length - stored} accepted messages (200) have no messages row after ${SETTLE_DEADLINE_MS / 1000} s: ${missing
      .slice(0, 3)
      .map((d) => `#${d.i}`)
      .join(", ")} (see "not delivered" above for their envelope and job)`,
  );
  r.check(
    delivered() === ids.length,
    `${ids.length - delivered()} accepted messages never reached the receiver within ${SETTLE_DEADLINE_MS / 1000} s: ${missing
      .slice(0, 3)
      .map((d) => d.text)
      .join(", ")}`,
  );

  const like = `%${prefix}%`;
  const [envelopes] = await stack.q<{ n: string; unprocessed: string; failed: string }>(
    "select count(*) as n, count(*) filter (where processed_at is null) as unprocessed, count(*) filter (where error is not null) as failed from inbound_webhooks where body like $1",
    [like],
  );
  const [events] = await stack.q<{ n: string; distinct_msgs: string }>(
    "select count(*) as n, count(distinct payload->'messages'->0->>'id') as distinct_msgs from events where type = 'message.received' and payload->>'text' like $1",
    [`${prefix}%`],
  );
  const deliveryRows = await stack.q<{ status: string; n: string; attempts: string }>(
    "select d.status, count(*) as n, sum(d.attempt_count) as attempts from webhook_deliveries d join events e on e.id = d.event_id where e.type = 'message.received' and e.payload->>'text' like $1 group by d.status order by d.status",
    [`${prefix}%`],
  );
  const unsettled = deliveryRows.filter((d) => d.status !== "succeeded").reduce((n, d) => n + Number(d.n), 0);
  if (unsettled)
    r.info(
      `note: ${unsettled} webhook_deliveries rows are not 'succeeded' although every event reached the receiver (an attempt made but not recorded; pg-boss will run its job again)`,
    );
  r.info(
    `inbound_webhooks: ${envelopes!.n} envelopes (${envelopes!.unprocessed} unprocessed, ${envelopes!.failed} with an error); events: ${events!.n} message.received for ${events!.distinct_msgs} messages; webhook_deliveries: ${deliveryRows.map((d) => `${d.status} ${d.n} (${d.attempts} attempts)`).join(", ") || "none"}`,
  );
  r.check(Number(events!.n) === ids.length, `${events!.n} message.received events for ${ids.length} messages (expected exactly one each)`);
  const arrivals = ctx.received.filter(
    (d) =>
      typeof (d.body as { payload?: { text?: unknown } })?.payload?.text === "string" &&
      String((d.body as { payload: { text: string } }).payload.text).startsWith(prefix),
  );
  r.info(`receiver: ${arrivals.length} message.received arrivals for ${new Set(arrivals.map((a) => a.id)).size} distinct event ids`);

  // Same processes, still running: nothing died and nothing needed a restart.
  const webAlive = stack.alive(stack.web) && stack.web.pid === webPid;
  const workerAlive = stack.alive(stack.worker) && stack.worker.pid === workerPid;
  r.info(
    `processes: web pid ${webPid} ${webAlive ? "alive" : "DIED"}, worker pid ${workerPid} ${workerAlive ? "alive" : "DIED"}; logs during the scenario: ${logLine(logsBefore, logCounts(ctx))}`,
  );
  r.check(webAlive, `the web process (pid ${webPid}) died: exit ${stack.web.child.exitCode ?? stack.web.child.signalCode}\n${stack.web.tail()}`);
  r.check(workerAlive, `the worker (pid ${workerPid}) died: exit ${stack.worker.child.exitCode ?? stack.worker.child.signalCode}\n${stack.worker.tail()}`);

  const maxInbound = summarize(inbound.latencies).max ?? 0;
  const maxProbe = summarize(probe.latencies).max ?? 0;
  r.check(maxInbound <= MAX_LATENCY_MS, `a provider delivery waited ${ms(maxInbound)} (limit ${MAX_LATENCY_MS} ms): ${inbound.slowest.what}`);
  r.check(maxProbe <= MAX_LATENCY_MS, `an API request waited ${ms(maxProbe)} (limit ${MAX_LATENCY_MS} ms): ${probe.slowest.what}`);
  r.check(
    inbound.errors500.length === 0,
    `${inbound.errors500.length} provider deliveries answered 5xx other than 503: ${inbound.errors500.slice(0, 3).join(" | ")}`,
  );
  r.check(probe.errors500.length === 0, `${probe.errors500.length} API requests answered 5xx other than 503: ${probe.errors500.slice(0, 3).join(" | ")}`);
  r.summary = `sent ${deliveries.length}, accepted ${accepted.length} (${resent} resent), stored ${stored}, delivered ${delivered()}; max latency ${ms(Math.max(maxInbound, maxProbe))}`;
}
