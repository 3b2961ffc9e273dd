/**
 * 7. Many processes, one truth (issue 36). Two `next start` web processes and two `npm run worker`
 * processes on the private Postgres and Redis, media in one S3-compatible bucket (scripts/faults/
 * cluster.ts; the suite's first web process stays up as the simulator's host). Traffic spread over both
 * web processes (sends, signed inbound deliveries, function invokes) while a broadcast runs; then one
 * web process and one worker are SIGKILLed and started again mid-load, and after that the other web
 * process and the other worker get SIGTERM mid-load (and are started again). Figures: accepted
 * messages lost (0), inbound messages lost or stored twice (0), events delivered twice beyond
 * at-least-once (0), broadcast recipients sent twice (0), answers 5xx or dropped from the SIGTERMed
 * process (0) and its exit code (0), pair pacing and the per-key rate limit held across both web
 * processes (429s), one live chain per recurring job, and a media file fetched through either web process.
 */
import { randomBase62 } from "../../../bench/env";
import { sleep, waitUntil } from "../../../bench/load";
import { startReceiver } from "../../../bench/receiver";
import { Cluster } from "../cluster";
import type { FaultContext } from "../context";
import { ms, type Report } from "../report";
import { recipientsOf, setUpBroadcast, sim, statsOf, type Sent } from "./broadcast-crash";
import { SpreadLoad } from "./multi-load";
import { mediaThroughEither, pairPacing, recurringChains, settled, sharedRateLimit, type Outcome } from "./multi-checks";

const LOAD_MS = 40_000;
const TICK_MS = 250;
const KILL_AT_MS = 5_000;
const BROADCAST_RECIPIENTS = 400;
const BROADCAST_RATE = 25;
/** A killed worker's jobs come back after their expiry at pg-boss's next pass (scenario 3): up to about 2 minutes. */
const SETTLE_DEADLINE_MS = 180_000;
const RATE_LIMIT = 15;

const ECHO = "export default async function (event) { return { n: event.arguments.n }; }";

export async function multiProcessScenario(ctx: FaultContext, r: Report): Promise<void> {
  const { stack } = ctx;
  const cluster = new Cluster(stack, stack.o.logDir, ctx.log);
  const arrivals = new Map<string, number>();
  const bodies = new Map<string, string>();
  const receiver = await startReceiver({
    tokenPrefix: ctx.token,
    onDelivery: (arrival, body) => {
      if (!arrival.id) return;
      arrivals.set(arrival.id, (arrivals.get(arrival.id) ?? 0) + 1);
      if (arrival.event === "message.received" && bodies.size < 5_000) bodies.set(arrival.id, JSON.stringify(body));
    },
  });
  try {
    // Only the cluster's workers take jobs: the suite's own worker drains and stops (SIGTERM) first.
    stack.worker.child.kill("SIGTERM");
    const stackWorkerExit = await stack.worker.exited;
    r.info(`the suite's worker got SIGTERM and exited ${stackWorkerExit}`);
    r.check(stackWorkerExit === 0, `the suite's worker exited ${stackWorkerExit} after SIGTERM, not 0`);
    await cluster.start();
    await stack.setWebhook(receiver.url);
    const since = new Date(Date.now() - 1000);
    const fn = await deploy(stack);
    const run = randomBase62(6).toLowerCase();
    const broadcast = await setUpBroadcast(stack, `m${run}`, BROADCAST_RECIPIENTS, BROADCAST_RATE);
    await stack.api("POST", `/broadcasts/${broadcast.broadcastId}/send`, {}, { "idempotency-key": `faults-multi-bc-${run}` });
    r.info(`2 web + 2 workers up; a broadcast to ${BROADCAST_RECIPIENTS} at ${BROADCAST_RATE}/s sending; load for ${LOAD_MS / 1000} s over both web processes`);

    const load = new SpreadLoad(cluster, stack.agent, stack.key);
    const loadDone = drive(load, ctx, fn);
    const disruptions = await disrupt(cluster, load, r);
    await loadDone;
    r.info(
      `load: ${load.sent.length} sends accepted, ${load.inbound.length} inbound deliveries taken, ${load.invokes} invokes answered; ` +
        `${load.answers.filter((a) => a.status === 0).length} requests got no answer and were resent to the other process`,
    );

    const final = await settled(stack, since, load.sent, load.inbound, arrivals, SETTLE_DEADLINE_MS);
    const bc = await broadcastOutcome(stack, broadcast);
    report(r, final, bc, disruptions);

    // Separate proofs, after the load (its sends would take the pair slots and the key's window).
    await sleep(6_500);
    const pacing = await pairPacing(ctx, cluster, stack.conversations.slice(0, 3));
    r.info(`pair pacing across processes: ${pacing.paced}/${pacing.pairs} second sends through the other web process answered 429 message_pair_rate_limit`);
    r.check(pacing.paced === pacing.pairs, `pair pacing: only ${pacing.paced} of ${pacing.pairs} second sends were paced across processes`);
    const limit = await sharedRateLimit(stack, cluster, RATE_LIMIT, RATE_LIMIT * 3);
    r.info(`per-key rate limit ${RATE_LIMIT}/min over both web processes: ${limit.allowed} allowed, ${limit.limited} × 429 of ${RATE_LIMIT * 3}`);
    r.check(limit.allowed === RATE_LIMIT, `the per-key limit let ${limit.allowed} requests through across two processes, not ${RATE_LIMIT}`);
    const media = await mediaThroughEither(ctx, cluster, bodies, stack.testers[stack.testers.length - 1]!);
    r.info(`media through either web process: ${media.fetched.map((f) => `${f.web} ${f.status} (${f.bytes} bytes)`).join(", ") || "no signed URL arrived"}`);
    r.check(
      media.fetched.length === 2 && media.fetched.every((f) => f.status === 200 && f.bytes === media.fetched[0]!.bytes && f.bytes > 0),
      "media: not served by both web processes",
    );
    const chains = await recurringChains(stack);
    r.info(
      `recurring chains (live jobs): ${Object.entries(chains)
        .map(([name, n]) => `${name} ${n}`)
        .join(", ")}`,
    );
    r.check(
      Object.values(chains).every((n) => n === 1),
      `recurring jobs are not one chain each: ${JSON.stringify(chains)}`,
    );
    r.summary =
      `2 web + 2 workers: ${final.sends.accepted} sends, ${final.inbound.accepted} inbound, ${final.events.total} events; lost ${final.sends.missing + final.sends.unsent + final.inbound.missing}, ` +
      `twice ${final.events.twiceBeyond}, broadcast twice ${bc.sent.repeated_count}; SIGTERM: ${disruptions.termBad} bad answers, exits ${disruptions.webExit}/${disruptions.workerExit}`;
  } finally {
    await stack.setWebhook(ctx.fast.url).catch(() => {});
    await cluster.stop();
    await receiver.close();
  }
}

async function deploy(stack: FaultContext["stack"]): Promise<string> {
  const created = await stack.api<{ id: string }>("POST", "/functions", {
    slug: `multi-${randomBase62(6).toLowerCase()}`,
    name: "Multi",
    trigger_type: "KEYWORD",
  });
  const deployed = await stack.api<{ status: string }>("POST", `/functions/${created.body.id}/deploy`, { source: ECHO });
  if (deployed.body.status !== "ok") throw new Error(`deploy: ${JSON.stringify(deployed.body)}`);
  return created.body.id;
}

/** The traffic: every tick an inbound delivery, every other tick an invoke, every fourth a send (each conversation once per 12 s: pair pacing). */
async function drive(load: SpreadLoad, ctx: FaultContext, functionId: string): Promise<void> {
  const { stack } = ctx;
  const end = Date.now() + LOAD_MS;
  const pending: Promise<void>[] = [];
  for (let tick = 0; Date.now() < end; tick++) {
    const tester = stack.testers[tick % stack.testers.length]!;
    pending.push(load.inboundText(stack.sandbox, tester, `${ctx.token}multi-${tick}`));
    if (tick % 2 === 0) pending.push(load.invoke(functionId));
    if (tick % 4 === 0) pending.push(load.sendText(stack.conversations[(tick / 4) % stack.conversations.length]!, `multi ${tick}`));
    await sleep(TICK_MS);
  }
  await Promise.all(pending);
}

interface Disruptions {
  killedWeb: string;
  restartMs: number;
  termBad: number;
  termAnswers: number;
  webExit: number | null;
  workerExit: number | null;
  givenBack: number;
}

/** SIGKILL webA and worker1 and start them again; then SIGTERM webB and worker2 under load, and start them again. */
async function disrupt(cluster: Cluster, load: SpreadLoad, r: Report): Promise<Disruptions> {
  const [webA, webB] = cluster.webs as [Cluster["webs"][0], Cluster["webs"][0]];
  const [worker1, worker2] = cluster.workers as [Cluster["workers"][0], Cluster["workers"][0]];
  await sleep(KILL_AT_MS);
  const killedAt = Date.now();
  await Promise.all([cluster.kill(webA.proc), cluster.kill(worker1.proc)]);
  r.info(`SIGKILLed ${webA.name} and ${worker1.name} under load; starting them again`);
  await Promise.all([cluster.startWeb(webA), cluster.startWorker(worker1)]);
  load.putBack(webA);
  const restartMs = Date.now() - killedAt;

  // SIGTERM: the process keeps answering (readiness 503) for SVC_SHUTDOWN_DELAY_MS; the load balancer
  // takes it out when its readiness says so. Every request it took must be answered, none 5xx.
  const termAt = Date.now();
  webB.proc.child.kill("SIGTERM");
  worker2.proc.child.kill("SIGTERM");
  await waitUntil(
    async () => {
      const ready = await fetch(`${webB.base}/readyz`).catch(() => null);
      return ready === null || ready.status === 503 ? true : null;
    },
    10_000,
    50,
  );
  load.takeOut(webB);
  const [webExit, workerExit] = await Promise.all([webB.proc.exited, worker2.proc.exited]);
  const answers = load.answersOf(webB.name, termAt);
  const givenBack = Number(/(\d+) job\(s\) still running at the deadline went back/.exec(worker2.proc.tail())?.[1] ?? 0);
  r.info(
    `SIGTERM to ${webB.name} and ${worker2.name} under load: ${webB.name} answered ${answers.total} requests after the signal (${answers.bad.length} 5xx or dropped), ` +
      `exited ${webExit}; ${worker2.name} exited ${workerExit} (${givenBack} jobs went back to the queue)`,
  );
  r.check(answers.bad.length === 0, `${webB.name} after SIGTERM: ${answers.bad.map((a) => `${a.what} ${a.status || a.error}`).join(", ")}`);
  r.check(webExit === 0 && workerExit === 0, `after SIGTERM ${webB.name} exited ${webExit} and ${worker2.name} ${workerExit}, not 0`);
  await Promise.all([cluster.startWeb(webB), cluster.startWorker(worker2)]);
  load.putBack(webB);
  return { killedWeb: webA.name, restartMs, termBad: answers.bad.length, termAnswers: answers.total, webExit, workerExit, givenBack };
}

async function broadcastOutcome(stack: FaultContext["stack"], broadcast: { broadcastId: string; phoneNumberId: string }) {
  const completed = await waitUntil(async () => ((await statsOf(stack, broadcast.broadcastId)).status === "COMPLETED" ? true : null), 120_000, 500);
  const recipients = await recipientsOf(stack, broadcast.broadcastId);
  const sent = await sim<Sent>(stack, "GET", `/control/numbers/sent?phone_number_id=${broadcast.phoneNumberId}`);
  return { completed: completed !== null, recipients, sent };
}

function report(r: Report, final: Outcome, bc: Awaited<ReturnType<typeof broadcastOutcome>>, d: Disruptions): void {
  r.info(`${d.killedWeb} and its worker were back ${ms(d.restartMs)} after the SIGKILL`);
  r.info(
    `sends: ${final.sends.accepted} accepted, ${final.sends.missing} not stored, ${final.sends.unsent} never handed to the provider; ` +
      `inbound: ${final.inbound.accepted} taken, ${final.inbound.missing} not stored, ${final.inbound.twice} stored twice`,
  );
  r.info(
    `events: ${final.events.total}, ${final.events.undelivered} undelivered, ${final.events.arrivedTwice} arrived twice (at least once: a killed worker's answer unrecorded), ` +
      `${final.events.twiceBeyond} delivered twice beyond that`,
  );
  r.info(
    `broadcast: ${bc.completed ? "COMPLETED" : "not completed"}, ${bc.recipients.handedOver} handed to the provider, ${bc.recipients.pending} pending; ` +
      `the simulator got ${bc.sent.accepted} messages for ${bc.sent.recipients} customers, ${bc.sent.repeated_count} more than once`,
  );
  r.check(final.sends.missing === 0 && final.sends.unsent === 0, `accepted sends lost: ${final.sends.missing} not stored, ${final.sends.unsent} never sent`);
  r.check(final.inbound.missing === 0 && final.inbound.twice === 0, `inbound: ${final.inbound.missing} lost, ${final.inbound.twice} stored twice`);
  r.check(final.events.undelivered === 0, `${final.events.undelivered} events not delivered within ${SETTLE_DEADLINE_MS / 1000} s`);
  r.check(final.events.twiceBeyond === 0, `${final.events.twiceBeyond} events delivered twice with two recorded successes`);
  r.check(bc.completed && bc.recipients.pending === 0, `the broadcast did not complete (${bc.recipients.pending} pending)`);
  r.check(bc.sent.repeated_count === 0, `${bc.sent.repeated_count} broadcast recipients got the message twice`);
}
