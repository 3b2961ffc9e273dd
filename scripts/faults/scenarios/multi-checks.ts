/**
 * The multi-process scenario's separate proofs and its final figures (multi-process.ts): pair pacing
 * and the per-key rate limit across two web processes, media through either, recurring chains, and
 * what was accepted against what was stored, sent and delivered.
 */
import { runNode, ROOT } from "../../../bench/procs";
import { send, sleep, waitUntil } from "../../../bench/load";
import type { Cluster } from "../cluster";
import type { FaultContext } from "../context";
import type { Stack } from "../stack";
import path from "node:path";

/** Two sends to one conversation through the two web processes back to back: the second must be 429 (pacing is in Redis, not per process). */
export async function pairPacing(ctx: FaultContext, cluster: Cluster, conversations: string[]): Promise<{ pairs: number; paced: number }> {
  const [a, b] = cluster.webs;
  let paced = 0;
  for (const conversationId of conversations) {
    const body = JSON.stringify({ channel_id: "ch_sandbox", conversation_id: conversationId, text: `${ctx.token}pair` });
    const headers = { authorization: ctx.stack.auth.authorization, "content-type": "application/json" };
    const first = await send(ctx.stack.agent, { method: "POST", url: `${a!.base}/api/v1/messages`, headers, body });
    const second = await send(ctx.stack.agent, { method: "POST", url: `${b!.base}/api/v1/messages`, headers, body });
    if (first.status === 200 && second.status === 429 && second.body.includes("message_pair_rate_limit")) paced++;
    else ctx.log(`  pair pacing: ${first.status} then ${second.status} ${second.body.slice(0, 160)}`);
  }
  return { pairs: conversations.length, paced };
}

/**
 * A fresh key on a plan of `limit` requests a minute, `tries` requests alternating between the two
 * web processes: exactly `limit` pass when the count is shared (Redis); up to twice as many if each
 * process counted alone. The organization's plan is put back afterwards.
 */
export async function sharedRateLimit(stack: Stack, cluster: Cluster, limit: number, tries: number): Promise<{ allowed: number; limited: number }> {
  const env = stack.processEnv();
  const cli = (args: string[]) => runNode(["--import", "tsx", path.join(ROOT, "cli/index.ts"), ...args], env, 60_000);
  const [org] = await stack.q<{ id: string; plan_id: string }>(
    "select o.id, o.plan_id from organizations o join projects p on p.organization_id = o.id where p.id = $1",
    [stack.projectId],
  );
  await cli(["plans", "set", "--id", "faults-tight", "--requests", String(limit), "--window", "60", "--monthly", "1000000"]);
  const key = (await cli(["keys", "create", "--project", stack.projectId, "--scopes", "*"])).trim().split("\n")[0]!.trim();
  await cli(["orgs", "set-plan", "--org", org!.id, "--plan", "faults-tight"]);
  let allowed = 0;
  let limited = 0;
  try {
    for (let i = 0; i < tries; i++) {
      const web = cluster.webs[i % cluster.webs.length]!;
      const answer = await send(stack.agent, { method: "GET", url: `${web.base}/api/v1/identity`, headers: { authorization: `Bearer ${key}` } });
      if (answer.status === 200) allowed++;
      else if (answer.status === 429) limited++;
    }
  } finally {
    await cli(["orgs", "set-plan", "--org", org!.id, "--plan", org!.plan_id]);
  }
  return { allowed, limited };
}

/** An image from a tester (cached by a worker into the bucket), fetched through each web process by its signed URL. */
export async function mediaThroughEither(ctx: FaultContext, cluster: Cluster, bodies: Map<string, string>, tester: string) {
  const sent = await ctx.stack.customer({ from: tester, type: "image", media: { caption: `${ctx.token}multi-media` } });
  const MEDIA_URL = /https?:\/\/[^"\s]+(\/api\/v1\/media\/med_[^/"]+\/content\?token=[^"\s]+)/;
  const pathAndQuery = await waitUntil(
    () => {
      for (const body of bodies.values()) if (body.includes(sent.message_id)) return MEDIA_URL.exec(body)?.[1] ?? null;
      return null;
    },
    60_000,
    250,
  );
  if (!pathAndQuery) return { fetched: [] as { web: string; status: number; bytes: number }[] };
  const fetched = [];
  for (const web of cluster.webs) {
    const answer = await send(ctx.stack.agent, { method: "GET", url: `${web.base}${pathAndQuery}` });
    fetched.push({ web: web.name, status: answer.status, bytes: Buffer.byteLength(answer.body, "latin1") });
  }
  return { fetched };
}

const RECURRING = ["media.expire", "flows.expire-dispatches", "functions.expire-invocations", "audit.expire"];

/** Live (waiting or running) jobs of each recurring chain: one each, however many workers started. */
export async function recurringChains(stack: Stack): Promise<Record<string, number>> {
  const rows = await stack.q<{ name: string; n: string }>(
    "select name, count(*) as n from pgboss.job where name = any($1) and state in ('created', 'retry', 'active') group by name",
    [RECURRING],
  );
  return Object.fromEntries(RECURRING.map((name) => [name, Number(rows.find((r) => r.name === name)?.n ?? 0)]));
}

export interface Outcome {
  sends: { accepted: number; missing: number; unsent: number };
  inbound: { accepted: number; missing: number; twice: number };
  events: { total: number; undelivered: number; arrivedTwice: number; twiceBeyond: number };
}

/** Accepted against stored, handed to the provider and delivered (events since `since`). */
export async function outcome(stack: Stack, since: Date, sent: string[], inbound: string[], arrivals: Map<string, number>): Promise<Outcome> {
  const sends = await stack.q<{ id: string; pid: string | null; status: string }>(
    "select id, platform_message_id as pid, status from messages where id = any($1)",
    [sent],
  );
  const stored = await stack.q<{ pid: string; n: string }>(
    "select platform_message_id as pid, count(*) as n from messages where platform_message_id = any($1) group by platform_message_id",
    [inbound],
  );
  const events = await stack.q<{ id: string; status: string; succeeded: string }>(
    `select e.id, d.status, (select count(*) from webhook_attempts a where a.delivery_id = d.id and a.status_code between 200 and 299) as succeeded
       from events e join webhook_deliveries d on d.event_id = e.id where e.project_id = $1 and e.created_at >= $2`,
    [stack.projectId, since],
  );
  return {
    sends: { accepted: sent.length, missing: sent.length - sends.length, unsent: sends.filter((m) => m.status === "queued" && !m.pid).length },
    inbound: { accepted: inbound.length, missing: inbound.length - stored.length, twice: stored.filter((s) => Number(s.n) > 1).length },
    events: {
      total: events.length,
      undelivered: events.filter((e) => e.status !== "succeeded").length,
      arrivedTwice: events.filter((e) => (arrivals.get(e.id) ?? 0) > 1).length,
      // Twice beyond at-least-once: the service itself recorded two successful deliveries of one event.
      // An event whose worker was killed after the receiver answered and before the attempt was recorded
      // arrives again by design; its delivery then holds one recorded success.
      twiceBeyond: events.filter((e) => (arrivals.get(e.id) ?? 0) > 1 && Number(e.succeeded) > 1).length,
    },
  };
}

/** Waits (bounded) until the work is done: every send handed over, every event delivered. */
export async function settled(stack: Stack, since: Date, sent: string[], inbound: string[], arrivals: Map<string, number>, deadlineMs: number) {
  const done = await waitUntil(
    async () => {
      const now = await outcome(stack, since, sent, inbound, arrivals);
      return now.sends.unsent === 0 && now.inbound.missing === 0 && now.events.undelivered === 0 ? now : null;
    },
    deadlineMs,
    1000,
  );
  await sleep(0);
  return done ?? (await outcome(stack, since, sent, inbound, arrivals));
}
