/**
 * 3. Worker SIGKILLed mid-delivery. The project's webhook points at a slow receiver (2 s per answer);
 * inbound messages are ingested, and while their deliveries are in flight the worker is SIGKILLed
 * and a new one started. Every event must still be delivered (at least once: the receiver dedupes by
 * the event id in x-svc-delivery / webhook-id) and every delivery row end `succeeded`.
 */
import { startReceiver } from "../../../bench/receiver";
import { send, waitUntil } from "../../../bench/load";
import type { FaultContext } from "../context";
import { ms, type Report } from "../report";

const MESSAGES = 12;
const SLOW_MS = 2_000;
/**
 * A delivery the killed worker attempted itself (lib/domain/webhooks/direct.ts) goes to a job once its
 * 30 s lease has passed, at the next watchdog pass of the new worker (≤ 5 s); pg-boss gives an
 * abandoned webhook.deliver job back after expireInSeconds (30 s) at its next maintenance pass (≤ 60 s).
 */
const DELIVERY_DEADLINE_MS = 150_000;

export async function workerKillScenario(ctx: FaultContext, r: Report): Promise<void> {
  const { stack } = ctx;
  const prefix = `${ctx.token}kill-`;
  const slow = await startReceiver({ delayMs: SLOW_MS, tokenPrefix: prefix });
  try {
    await stack.setWebhook(slow.url);
    r.info(`webhook_url → a slow receiver (${SLOW_MS} ms per answer)`);
    const sent: { id: string; text: string }[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const text = `${prefix}${i}`;
      const { id, request } = stack.inbound(stack.testers[i % stack.testers.length]!, text);
      const a = await send(stack.agent, { ...request, timeoutMs: 10_000 });
      r.check(a.status === 200, `provider delivery ${i} answered ${a.status}: ${a.body.slice(0, 200)}`);
      sent.push({ id, text });
    }
    r.info(`sent ${sent.length} signed provider deliveries (all 200)`);

    // Deliveries in flight: the receiver holds requests it has not answered yet.
    const inFlight = await waitUntil(() => (slow.inFlight() >= Math.min(4, MESSAGES) ? slow.inFlight() : null), 30_000, 20);
    const oldPid = stack.worker.pid;
    const arrivedBefore = slow.arrivals.length;
    stack.worker.child.kill("SIGKILL");
    await stack.worker.exited;
    r.info(`worker pid ${oldPid} SIGKILLed with ${inFlight ?? slow.inFlight()} deliveries in flight at the receiver (${arrivedBefore} requests had arrived)`);
    r.check(inFlight !== null, `deliveries never reached the slow receiver within 30 s (in flight: ${slow.inFlight()})`);
    const killedAt = Date.now();
    await stack.startWorker();

    const eventIds = async () =>
      (await stack.q<{ id: string }>("select id from events where type = 'message.received' and payload->>'text' like $1", [`${prefix}%`])).map((e) => e.id);
    const pendingRows = async () =>
      stack.q<{ status: string; n: string }>(
        "select d.status, count(*) as n from webhook_deliveries d join events e on e.id = d.event_id where e.type = 'message.received' and e.payload->>'text' like $1 group by d.status",
        [`${prefix}%`],
      );
    const done = await waitUntil(
      async () => {
        const ids = await eventIds();
        const got = new Set(slow.arrivals.map((a) => a.id));
        const rows = await pendingRows();
        const succeeded = Number(rows.find((row) => row.status === "succeeded")?.n ?? 0);
        return ids.length === MESSAGES && ids.every((id) => got.has(id)) && succeeded === MESSAGES ? Date.now() : null;
      },
      DELIVERY_DEADLINE_MS,
      500,
    );

    const ids = await eventIds();
    const got = new Set(slow.arrivals.map((a) => a.id));
    const missing = ids.filter((id) => !got.has(id));
    const perId = new Map<string, number>();
    for (const a of slow.arrivals) if (a.id && ids.includes(a.id)) perId.set(a.id, (perId.get(a.id) ?? 0) + 1);
    const duplicates = [...perId.values()].filter((n) => n > 1).length;
    const [stored] = await stack.q<{ n: string }>("select count(*) as n from messages where channel_id = 'ch_sandbox' and platform_message_id = any($1)", [
      sent.map((s) => s.id),
    ]);
    const rows = await pendingRows();
    r.info(
      `stored: ${stored!.n}/${MESSAGES} messages, ${ids.length} message.received events; webhook_deliveries: ${rows.map((row) => `${row.status} ${row.n}`).join(", ")}`,
    );
    r.info(
      `delivered: ${ids.length - missing.length}/${ids.length} events at the receiver (${slow.arrivals.length} requests, ${duplicates} events delivered more than once)${done ? `, all ${((done - killedAt) / 1000).toFixed(1)} s after the kill` : ""}`,
    );
    r.check(
      Number(stored!.n) === MESSAGES && ids.length === MESSAGES,
      `${stored!.n} messages and ${ids.length} events stored for ${MESSAGES} accepted deliveries`,
    );
    r.check(
      missing.length === 0,
      `${missing.length} events never reached the receiver within ${DELIVERY_DEADLINE_MS / 1000} s of the kill: ${missing.slice(0, 5).join(", ")}`,
    );
    r.check(
      done !== null,
      `not every delivery row ended succeeded within ${DELIVERY_DEADLINE_MS / 1000} s: ${rows.map((row) => `${row.status} ${row.n}`).join(", ")}`,
    );
    r.check(stack.alive(stack.web), `the web process died during the worker kill`);
    r.summary = `sent ${MESSAGES}, stored ${stored!.n}, delivered ${ids.length - missing.length}/${ids.length} (${duplicates} twice)${done ? ` ${ms(done - killedAt)} after the kill` : ""}`;
  } finally {
    await stack.setWebhook(ctx.fast.url).catch(() => {});
    await slow.close();
  }
}
