/**
 * 5. Broadcast with its worker SIGKILLed twice. A broadcast of one template to 3,000 opted-in
 * customers on a dedicated number, paced at 200 messages/s so the run lasts long enough to be cut:
 * the worker is SIGKILLed after about 500 sends and again about 400 sends after it resumed, and a new
 * worker is started each time. Checks: per customer the simulator accepted at most one message (a send
 * whose answer the dead worker never heard ends `failed` / `outcome_unknown`, never sent again); the
 * run resumes within 30 s of each restart (the run's lease runs out and the new worker's watchdog
 * takes it over, not pg-boss's expiry of the dead job); it completes; every recipient ends in a final
 * state. Prints how many were sent, how many ended outcome_unknown (and how many of those the provider
 * had in fact accepted), and the time to resume after each kill and restart.
 */
import { randomBase62 } from "../../../bench/env";
import { sendJson, sleep, waitUntil } from "../../../bench/load";
import type { FaultContext } from "../context";
import type { Stack } from "../stack";
import { ms, type Report } from "../report";

const RECIPIENTS = 3_000;
/** The channel's pace (messages/s); the simulator's number allows 1,000/s, so nothing is refused for throughput. */
const RATE = 200;
/** Kill when this many were accepted since the send; the second kill this many after the first resume. */
const FIRST_KILL_AT = 500;
const SECOND_KILL_AFTER = 400;
const RESUME_LIMIT_MS = 30_000;
/** From the send to COMPLETED, kills and resumes included. */
const RUN_DEADLINE_MS = 80_000;
/** After COMPLETED, for every recipient to be handed over, failed or skipped (at once, unless something is wrong). */
const FINAL_DEADLINE_MS = 10_000;

interface Setup {
  phoneNumberId: string;
  broadcastId: string;
}

interface Stats {
  total: number;
  pending: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  skipped: number;
  outcome_unknown: number;
}

export interface Sent {
  accepted: number;
  kept: number;
  recipients: number;
  repeated_count: number;
  repeated: { to: string; count: number }[];
}

interface Resume {
  /** Accepted sends when the worker was killed. */
  killedAt: number;
  /** From the kill until the new worker was up, and until the first send after it. */
  restartMs: number;
  resumeAfterKillMs: number | null;
  resumeAfterRestartMs: number | null;
}

export async function sim<T>(stack: Stack, method: string, path: string, json?: unknown): Promise<T> {
  const r = await sendJson<T>(stack.agent, { method, url: `${stack.base}/api/simulator${path}`, ...(json !== undefined ? { json } : {}), timeoutMs: 15_000 });
  if (r.status !== 200) throw new Error(`simulator ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function api<T>(stack: Stack, method: string, path: string, json?: unknown): Promise<T> {
  const headers: Record<string, string> = method === "POST" ? { "idempotency-key": `faults-bc-${randomBase62(16)}` } : {};
  const r = await stack.api<T>(method, path, json, headers);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const accepted = async (stack: Stack, phoneNumberId: string) =>
  (await sim<{ accepted: number }>(stack, "GET", `/control/numbers/throughput?phone_number_id=${phoneNumberId}`)).accepted;

/**
 * A dedicated number (1,000/s at the simulator, paced at `rate` by the channel), an APPROVED template,
 * and a DRAFT to `recipients` opted-in contacts written by SQL (also the multi-process scenario's).
 */
export async function setUpBroadcast(stack: Stack, run: string, recipients = RECIPIENTS, rate = RATE): Promise<Setup> {
  const phoneNumberId = `pn-faults-bc-${run}`;
  await sim(stack, "POST", "/control/numbers/throughput", { phone_number_id: phoneNumberId, messages_per_second: 1000 });
  const channel = await api<{ id: string }>(stack, "POST", "/channels", {
    platform: "PLATFORM_A",
    credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-faults-bc-${run}`, access_token: "faults" },
  });
  await stack.q("update channels set throughput_mps = $1 where id = $2", [rate, channel.id]);
  const template = await api<{ id: string; meta_template_id: string }>(stack, "POST", "/templates", {
    channel_id: channel.id,
    name: `faults_crash_${run}`,
    language: "en_US",
    category: "MARKETING",
    components: [{ type: "BODY", text: "Hi {{1}}, this is the fault suite's broadcast.", example: { body_text: [["Ana"]] } }],
  });
  await sim(stack, "POST", `/templates/${template.meta_template_id}/review`, { status: "APPROVED" });
  const approved = await waitUntil(
    async () => ((await api<{ status: string }>(stack, "GET", `/templates/${template.id}`)).status === "APPROVED" ? true : null),
    15_000,
    100,
  );
  if (!approved) throw new Error("the template was not APPROVED within 15 s");
  const broadcast = await api<{ id: string }>(stack, "POST", "/broadcasts", {
    name: `Fault suite ${run}`,
    channel_id: channel.id,
    template: { id: template.id },
  });
  await seedRecipients(stack, { run, channelId: channel.id, broadcastId: broadcast.id, count: recipients });
  return { phoneNumberId, broadcastId: broadcast.id };
}

/** Contacts, identities, opt-ins and recipients in bulk (the API would take a minute for 3,000), as bench/broadcasts.ts writes them. */
async function seedRecipients(stack: Stack, s: { run: string; channelId: string; broadcastId: string; count: number }): Promise<void> {
  const [project] = await stack.q<{ organization_id: string }>("select organization_id from projects where id = $1", [stack.projectId]);
  const tag = `fbc${s.run}`;
  // 15 digits, ending in 1: never the simulator's undeliverable ...0000.
  const prefix = `1779${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}`;
  // $1 the tag, $2 the number prefix, $3 how many (a parameter a statement does not use has no type: an error); g the row's number.
  const seq = "lpad(g::text, 7, '0')";
  const rows = "from generate_series(1, $3::int) g";
  const base = [tag, prefix, s.count];
  await stack.q(
    `insert into contact_identities (id, contact_id, organization_id, kind, value)
     select 'ci_' || $1::text || ${seq}, 'ct_' || $1::text || ${seq}, $4, 'phone', $2::text || ${seq} || '1' ${rows}`,
    [...base, project!.organization_id],
  );
  await stack.q(
    `insert into contacts (project_id, id, organization_id, channel_id, platform, phone)
     select $4, 'ct_' || $1::text || ${seq}, $5, $6, 'PLATFORM_A', '+' || $2::text || ${seq} || '1' ${rows}`,
    [...base, stack.projectId, project!.organization_id, s.channelId],
  );
  await stack.q(
    `insert into opt_ins (id, project_id, contact_id, status, source, opted_in_at)
     select 'opt_' || $1::text || ${seq}, $2, 'ct_' || $1::text || ${seq}, 'active', 'faults', now() from generate_series(1, $3::int) g`,
    [tag, stack.projectId, s.count],
  );
  await stack.q(
    `insert into broadcast_recipients (id, broadcast_id, project_id, "to", contact_id, parameters, status)
     select 'bcr_' || $1::text || ${seq}, $4, $5, $2::text || ${seq} || '1', 'ct_' || $1::text || ${seq}, '{"1": "there"}'::jsonb, 'pending' ${rows}`,
    [...base, s.broadcastId, stack.projectId],
  );
  await stack.q("analyze contact_identities, contacts, opt_ins, broadcast_recipients");
}

/**
 * SIGKILLs the worker once `accepted` reaches `at`, starts a new one, and waits for the first send
 * after it (the run resumed). Returns the times.
 */
async function killAndResume(stack: Stack, phoneNumberId: string, at: number, log: (m: string) => void): Promise<Resume> {
  const reached = await waitUntil(async () => ((await accepted(stack, phoneNumberId)) >= at ? true : null), 60_000, 20);
  if (!reached) throw new Error(`the broadcast never reached ${at} accepted sends (at ${await accepted(stack, phoneNumberId)})`);
  const pid = stack.worker.pid;
  stack.worker.child.kill("SIGKILL");
  await stack.worker.exited;
  const killed = Date.now();
  const killedAt = await accepted(stack, phoneNumberId);
  log(`  worker pid ${pid} SIGKILLed at ${killedAt} accepted sends`);
  await stack.startWorker();
  const restarted = Date.now();
  // Sends the dead worker had in flight may still land for a moment: wait until they have settled.
  await sleep(500);
  const before = await accepted(stack, phoneNumberId);
  const resumed = await waitUntil(async () => ((await accepted(stack, phoneNumberId)) > before ? Date.now() : null), RESUME_LIMIT_MS + 15_000, 50);
  return {
    killedAt,
    restartMs: restarted - killed,
    resumeAfterKillMs: resumed === null ? null : resumed - killed,
    resumeAfterRestartMs: resumed === null ? null : resumed - restarted,
  };
}

export async function statsOf(stack: Stack, broadcastId: string): Promise<{ status: string; stats: Stats }> {
  return api<{ status: string; stats: Stats }>(stack, "GET", `/broadcasts/${broadcastId}`);
}

export async function broadcastCrashScenario(ctx: FaultContext, r: Report): Promise<void> {
  const { stack } = ctx;
  const run = randomBase62(6).toLowerCase();
  const setup = await setUpBroadcast(stack, run);
  r.info(`a DRAFT broadcast to ${RECIPIENTS} opted-in contacts on number ${setup.phoneNumberId}, paced at ${RATE}/s`);
  const started = Date.now();
  await api(stack, "POST", `/broadcasts/${setup.broadcastId}/send`, {});
  const first = await killAndResume(stack, setup.phoneNumberId, FIRST_KILL_AT, ctx.log);
  const second = await killAndResume(stack, setup.phoneNumberId, first.killedAt + SECOND_KILL_AFTER, ctx.log);
  const completed = await waitUntil(
    async () => ((await statsOf(stack, setup.broadcastId)).status === "COMPLETED" ? Date.now() : null),
    Math.max(1_000, RUN_DEADLINE_MS - (Date.now() - started)),
    250,
  );
  // Final for the sender: nobody pending, nobody queued without the provider's id. A delivery receipt
  // the killed worker was applying waits for pg-boss to expire that ingest job (scenario 3): reported only.
  const final = await waitUntil(async () => {
    const now = await recipientsOf(stack, setup.broadcastId);
    return now.pending === 0 && now.unsent === 0 ? now : null;
  }, FINAL_DEADLINE_MS);
  const recipients = final ?? (await recipientsOf(stack, setup.broadcastId));
  const { status, stats } = await statsOf(stack, setup.broadcastId);
  const sent = await sim<Sent>(stack, "GET", `/control/numbers/sent?phone_number_id=${setup.phoneNumberId}`);
  const unknownReached = await unknownButAccepted(stack, setup.broadcastId, setup.phoneNumberId);
  const takeovers = stack.logCount(/\[broadcasts\] \S+: its sender stopped renewing its lease/g, "worker");

  for (const [i, k] of [first, second].entries()) {
    r.info(
      `kill ${i + 1} at ${k.killedAt} accepted: new worker up ${ms(k.restartMs)} after the kill; sending resumed ${ms(k.resumeAfterRestartMs)} after the restart (${ms(k.resumeAfterKillMs)} after the kill)`,
    );
    r.check(
      k.resumeAfterRestartMs !== null && k.resumeAfterRestartMs <= RESUME_LIMIT_MS,
      `kill ${i + 1}: sending resumed ${ms(k.resumeAfterRestartMs)} after the restart (limit ${RESUME_LIMIT_MS / 1000} s)`,
    );
  }
  r.info(
    `${status}${completed ? ` ${((completed - started) / 1000).toFixed(1)} s after the send` : ""}: ${recipients.handedOver} handed to the provider ` +
      `(sent ${stats.sent}, delivered ${stats.delivered}, read ${stats.read}, ${recipients.awaiting} still awaiting a receipt), ${stats.failed} failed of which ` +
      `${stats.outcome_unknown} outcome_unknown (${unknownReached} of those had in fact reached the simulator), ${stats.skipped} skipped, ` +
      `${recipients.pending} pending, ${recipients.unsent} queued without the provider's id; ${takeovers} takeovers by the watchdog`,
  );
  r.info(`simulator: ${sent.accepted} accepted from the number, ${sent.recipients} customers, ${sent.repeated_count} of them more than once`);
  r.check(status === "COMPLETED" && completed !== null, `the broadcast is ${status}, not COMPLETED within ${RUN_DEADLINE_MS / 1000} s of the send`);
  r.check(
    final !== null,
    `recipients not in a final state after it completed: ${recipients.pending} pending, ${recipients.unsent} queued without the provider's id`,
  );
  r.check(stats.total === RECIPIENTS, `${stats.total} recipients, expected ${RECIPIENTS}`);
  r.check(
    sent.repeated_count === 0,
    `${sent.repeated_count} customers got the broadcast more than once: ${sent.repeated
      .slice(0, 5)
      .map((x) => `${x.to} ×${x.count}`)
      .join(", ")}`,
  );
  r.check(sent.kept === sent.accepted, `the simulator kept ${sent.kept} of the ${sent.accepted} messages it accepted: the per-customer count is incomplete`);
  r.check(stats.failed === stats.outcome_unknown, `${stats.failed - stats.outcome_unknown} recipients failed for another reason than outcome_unknown`);
  r.check(
    sent.recipients === recipients.handedOver + unknownReached,
    `the simulator has ${sent.recipients} customers, the broadcast ${recipients.handedOver} handed over + ${unknownReached} unknown that reached it`,
  );
  r.check(stack.alive(stack.web), "the web process died during the broadcast");
  r.summary =
    `${RECIPIENTS} recipients, worker killed twice: ${recipients.handedOver} sent, ${stats.outcome_unknown} outcome_unknown, ${sent.repeated_count} sent twice; ` +
    `resumed ${ms(first.resumeAfterRestartMs)} / ${ms(second.resumeAfterRestartMs)} after the restarts`;
}

/** Where the recipients are, for the sender: pending, queued without / with the provider's id, and handed over (the provider's id, not failed). */
export async function recipientsOf(stack: Stack, broadcastId: string) {
  const [row] = await stack.q<{ pending: string; unsent: string; awaiting: string; handed: string }>(
    `select count(*) filter (where r.status = 'pending') as pending,
            count(*) filter (where r.status = 'queued' and m.platform_message_id is null) as unsent,
            count(*) filter (where r.status = 'queued' and m.platform_message_id is not null) as awaiting,
            count(*) filter (where r.status <> 'failed' and m.platform_message_id is not null) as handed
       from broadcast_recipients r left join messages m on m.id = r.message_id
      where r.broadcast_id = $1`,
    [broadcastId],
  );
  return { pending: Number(row!.pending), unsent: Number(row!.unsent), awaiting: Number(row!.awaiting), handedOver: Number(row!.handed) };
}

/** Recipients that ended outcome_unknown whose message the simulator did accept (the lost answer was a yes). */
async function unknownButAccepted(stack: Stack, broadcastId: string, phoneNumberId: string): Promise<number> {
  const unknown = await stack.q<{ to: string }>("select \"to\" from broadcast_recipients where broadcast_id = $1 and error->>'code' = 'outcome_unknown'", [
    broadcastId,
  ]);
  let reached = 0;
  for (const { to } of unknown) {
    const inbox = await sim<{ data: unknown[] }>(stack, "GET", `/customer/inbox?sender_id=${phoneNumberId}&address=${to}`);
    if (inbox.data.length > 0) reached++;
  }
  return reached;
}
