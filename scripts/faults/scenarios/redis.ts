/**
 * 1. Redis stopped and restarted. With Redis down, POST /messages must answer the spec's 503
 * message_rate_limit_unavailable (queued:false, retryable:true, retry_after:1, Retry-After: 1) within
 * 1 s and store nothing; once Redis is back, the same requests (same Idempotency-Keys) answer 200 and
 * the messages are stored and handed to the provider. Also: a Range past the end of a cached inbound
 * media file answers 416 (both were 500s in the production build when an error class was bundled twice).
 */
import { randomBase62 } from "../../../bench/env";
import { sleep, waitUntil } from "../../../bench/load";
import type { FaultContext } from "../context";
import { ms, type Report } from "../report";

const ATTEMPTS_WHILE_DOWN = 3;

export async function redisScenario(ctx: FaultContext, r: Report): Promise<void> {
  const { stack, redis } = ctx;
  await stack.setWebhook(ctx.fast.url);
  const run = randomBase62(6);
  const post = (key: string, conversation: string, text: string) =>
    stack.call({
      method: "POST",
      url: `${stack.base}/api/v1/messages`,
      headers: { ...stack.auth, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ channel_id: "ch_sandbox", conversation_id: conversation, text }),
    });

  const before = await post(`redis-${run}-before`, stack.freshConversation(), `${ctx.token}redis-before`);
  r.info(`Redis up: POST /messages → ${before.status} in ${ms(before.ms)}`);
  r.check(before.status === 200, `POST /messages with Redis up answered ${before.status}: ${before.body.slice(0, 300)}`);

  await redis.stop();
  r.info(`redis-server on :${redis.port} stopped (SIGKILL)`);
  const sends = Array.from({ length: ATTEMPTS_WHILE_DOWN }, (_, i) => ({
    key: `redis-${run}-${i}`,
    conversation: stack.freshConversation(),
    text: `${ctx.token}redis-${i}`,
  }));
  let maxDownMs = 0;
  for (const s of sends) {
    await sleep(400);
    const a = await post(s.key, s.conversation, s.text);
    maxDownMs = Math.max(maxDownMs, a.ms);
    const body = (a.json ?? {}) as Record<string, unknown>;
    r.info(
      `Redis down: POST /messages (Idempotency-Key ${s.key}) → ${a.status} ${String(body.error ?? a.body.slice(0, 80))} in ${ms(a.ms)}, Retry-After ${a.headers["retry-after"] ?? "none"}`,
    );
    const shaped =
      a.status === 503 &&
      body.error === "message_rate_limit_unavailable" &&
      body.queued === false &&
      body.retryable === true &&
      body.retry_after === 1 &&
      a.headers["retry-after"] === "1";
    r.check(
      shaped,
      `with Redis down POST /messages answered ${a.status} ${a.body.slice(0, 300)} (Retry-After: ${a.headers["retry-after"] ?? "none"}); expected 503 message_rate_limit_unavailable {queued:false, retryable:true, retry_after:1} with Retry-After: 1`,
    );
    r.check(a.ms <= 1000, `with Redis down POST /messages took ${ms(a.ms)} (limit 1 s)`);
  }
  const keys = sends.map((s) => s.key);
  const storedWhileDown = await stack.q<{ n: string }>("select count(*) as n from messages where idempotency_key = any($1)", [keys]);
  r.info(`stored while Redis was down: ${storedWhileDown[0]!.n} messages (expected 0)`);
  r.check(Number(storedWhileDown[0]!.n) === 0, `${storedWhileDown[0]!.n} messages were stored for requests answered 503`);

  await redis.start();
  const restarted = Date.now();
  r.info(`redis-server restarted on :${redis.port}`);
  // The API reconnects on its own (ioredis retries every ≤ 2 s): resend each with its Idempotency-Key.
  const statuses: number[] = [];
  for (const s of sends) {
    const ok = await waitUntil(
      async () => {
        const a = await post(s.key, s.conversation, s.text);
        statuses.push(a.status);
        if (a.status >= 500 && a.status !== 503) r.fail(`after the Redis restart POST /messages answered ${a.status}: ${a.body.slice(0, 300)}`);
        return a.status === 200 ? a : null;
      },
      15_000,
      500,
    );
    r.check(ok !== null, `POST /messages (Idempotency-Key ${s.key}) did not answer 200 within 15 s of Redis coming back (answers: ${statuses.join(", ")})`);
  }
  r.info(`Redis back: the ${sends.length} sends answered ${statuses.join(", ")}; all 200 ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart`);

  // Stored once each, and handed to the provider (the simulator) by the worker.
  const allKeys = [`redis-${run}-before`, ...keys];
  const handed = await waitUntil(
    async () => {
      const rows = await stack.q<{ key: string; status: string; sent: boolean }>(
        "select idempotency_key as key, status, platform_message_id is not null as sent from messages where idempotency_key = any($1)",
        [allKeys],
      );
      return rows.length === allKeys.length && rows.every((row) => row.sent) ? rows : null;
    },
    30_000,
    500,
  );
  const rows =
    handed ??
    (await stack.q<{ key: string; status: string; sent: boolean }>(
      "select idempotency_key as key, status, platform_message_id is not null as sent from messages where idempotency_key = any($1)",
      [allKeys],
    ));
  r.info(
    `stored: ${rows.length}/${allKeys.length} accepted sends (one row per Idempotency-Key); sent to the provider: ${rows.filter((row) => row.sent).length}; statuses ${rows.map((row) => row.status).join(", ")}`,
  );
  r.check(rows.length === allKeys.length, `${allKeys.length} sends were accepted (200) but ${rows.length} rows are stored`);
  r.check(
    rows.every((row) => row.sent),
    `not every accepted send reached the provider within 30 s`,
  );

  await mediaRange(ctx, r);
  r.summary = `down: ${sends.length}× 503 (max ${ms(maxDownMs)}); back: ${rows.length}/${allKeys.length} stored+sent`;
}

/** A cached inbound media file: Range past its end → 416 range_not_satisfiable (JSON) with Content-Range: bytes *\/size. */
async function mediaRange(ctx: FaultContext, r: Report): Promise<void> {
  const { stack } = ctx;
  const tester = stack.testers[stack.testers.length - 1]!;
  const sent = await stack.customer({ from: tester, type: "image", media: { caption: `${ctx.token}media` } });
  r.info(`media: a tester sent an image through the simulator (provider id ${sent.message_id})`);
  const MEDIA_URL = /https?:\/\/[^"\s]+\/api\/v1\/media\/med_[^/"]+\/content\?token=[^"\s]+/;
  const url = await waitUntil(
    () => {
      const found = ctx.received.find((d) => JSON.stringify(d.body).includes(sent.message_id));
      if (!found) return null;
      return MEDIA_URL.exec(JSON.stringify(found.body))?.[0] ?? "none";
    },
    30_000,
    250,
  );
  if (!url || url === "none") {
    r.fail(
      `media: ${url ? "message.received arrived without a signed media URL (the file was not cached within its hold)" : "no message.received for the image within 30 s"}; the 416 check could not run`,
    );
    return;
  }
  const whole = await stack.call({ method: "GET", url });
  const past = await stack.call({ method: "GET", url, headers: { range: "bytes=999999-" } });
  const body = (past.json ?? {}) as Record<string, unknown>;
  r.info(
    `media: GET of the signed URL → ${whole.status}; Range: bytes=999999- → ${past.status} ${String(body.error ?? past.body.slice(0, 80))}, Content-Range ${past.headers["content-range"] ?? "none"}`,
  );
  r.check(whole.status === 200, `media: GET of the signed URL answered ${whole.status}: ${whole.body.slice(0, 200)}`);
  r.check(
    past.status === 416 && body.error === "range_not_satisfiable" && /^bytes \*\/\d+$/.test(String(past.headers["content-range"] ?? "")),
    `media: Range: bytes=999999- answered ${past.status} ${past.body.slice(0, 300)} (Content-Range: ${past.headers["content-range"] ?? "none"}); expected 416 range_not_satisfiable with Content-Range: bytes */size`,
  );
}
