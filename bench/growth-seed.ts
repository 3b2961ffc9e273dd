/**
 * Bulk load for the growth phase (bench/growth.ts): Postgres-side INSERT … SELECT generate_series into
 * the real tables of one project, never through the API. Row i of a table of `full` rows is stamped
 * t0 + (i + ½)·30 days / full, and its id is `<prefix>_<ulid>` made from that time (ms) and i, so ids
 * sort by creation time as the product's own do (lib/ids.ts) and a step that loads rows [from, to)
 * only adds newer rows: the data grows the way it does in production.
 *
 * Shapes: conversation c has one contact (same index) and 10 messages; in each block of 10,000
 * messages, 1,000 conversations take turns (message i belongs to conversation (i mod 1,000) + 1,000·⌊i /
 * 10,000⌋), so a conversation's messages spread over ~7 hours. One event and one attempt (the last) per webhook delivery. The
 * function invocations belong to four functions in turn.
 */
import type { Sql } from "postgres";

export const GROWTH_FULL = { conversations: 100_000, messages: 1_000_000, deliveries: 1_000_000, invocations: 1_000_000, audit: 100_000 } as const;
export type GrowthTable = keyof typeof GROWTH_FULL;
export const SPAN_MS = 30 * 24 * 3600_000;
export const GROWTH_FUNCTIONS = 4;
/** Every 1,000th contact has this surname: the conversation search's rare term (0.1 % of conversations). */
export const RARE_NAME = "Zephyrine";
/** One of 50 surnames in turn: the search's common term (2 % of conversations). */
export const COMMON_NAME = "Okafor";
const FIRST = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jo", "Kofi", "Lena", "Mia", "Nils", "Omar", "Pia"];
const LAST = [COMMON_NAME, ...Array.from({ length: 49 }, (_, i) => `Family${i + 1}`)];

export interface GrowthTarget {
  projectId: string;
  organizationId: string;
  channelId: string;
  /** t0 (epoch ms): the oldest row's time; the newest is t0 + 30 days. */
  t0: number;
}

/** Rows [from, to) of each table: what one step loads. */
export type GrowthRange = Record<GrowthTable, [number, number]>;

/**
 * `<prefix>_<ulid>` in lower-case Crockford base32 as a SQL expression: 10 characters of the time (ms),
 * 8 of the row number, 8 of a multiplicative hash of it. `ms` and `n` should be columns (bigint) of a
 * subquery: the expression repeats them 26 times.
 */
function b32(v: string, len: number): string {
  return Array.from({ length: len }, (_, k) => `substr('0123456789abcdefghjkmnpqrstvwxyz', ((${v} >> ${5 * (len - 1 - k)}) & 31)::int + 1, 1)`).join(" || ");
}
function idOf(prefix: string, ms: string, n: string): string {
  return `('${prefix}_' || ${b32(ms, 10)} || ${b32(n, 8)} || ${b32(`((${n}) * 2654435761 % 1099511627776)`, 8)})`;
}

/** The time (epoch ms, bigint) of row i of a table of `full` rows. */
function msOf(t: GrowthTarget, full: number, i: string): string {
  return `(${t.t0}::bigint + ((${i}) * ${SPAN_MS / full})::bigint + ${Math.floor(SPAN_MS / full / 2)})`;
}
const ts = (ms: string) => `to_timestamp((${ms}) / 1000.0)`;

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (xs: readonly string[]) => `array[${xs.map(lit).join(",")}]`;

/** The first message of conversation c, and message i's conversation, as SQL over c / i. */
const firstMessageOf = (c: string) => `((${c}) % 1000 + 10000 * ((${c}) / 1000))`;
const conversationOf = (i: string) => `((${i}) % 1000 + 1000 * ((${i}) / 10000))`;
/** A conversation (and its contact) starts a second before its first message. */
const conversationMs = (t: GrowthTarget, c: string) => `(${msOf(t, GROWTH_FULL.messages, firstMessageOf(c))} - 1000)`;
const lastMessageMs = (t: GrowthTarget, c: string) => msOf(t, GROWTH_FULL.messages, `${firstMessageOf(c)} + 9000`);
const functionIdSql = (t: GrowthTarget, k: string) => idOf("fn", `${t.t0}::bigint`, `(${k})::bigint`);

/** One statement per table (and the events the deliveries point at), in foreign-key order. */
export function seedStatements(t: GrowthTarget, r: GrowthRange, first: boolean): { table: string; sql: string }[] {
  const F = GROWTH_FULL;
  const P = lit(t.projectId);
  const phone = (c: string) => `'1558' || lpad((${c})::text, 7, '0')`;
  const out: { table: string; sql: string }[] = [];
  if (first) {
    out.push({
      table: "hosted_functions",
      sql: `insert into hosted_functions (id, project_id, slug, name, trigger_type, runtime, script_name)
        select ${functionIdSql(t, "k")}, ${P}, 'growth-' || k, 'Growth ' || k, 'KEYWORD', 'PLAIN', 'growth-' || k
        from generate_series(0, ${GROWTH_FUNCTIONS - 1}) k`,
    });
  }
  const [c0, c1] = r.conversations;
  const conversationRows = `(select c, ${conversationMs(t, "c")} as cms, ${lastMessageMs(t, "c")} as lms from generate_series(${c0}::bigint, ${c1 - 1}) c) s`;
  out.push({
    table: "contacts",
    sql: `insert into contacts (project_id, id, organization_id, channel_id, platform, phone, name, status, metadata, created_at, updated_at)
      select ${P}, ${idOf("ct", "cms", "c")}, ${lit(t.organizationId)}, ${lit(t.channelId)}, 'PLATFORM_A', ${phone("c")},
        (${arr(FIRST)})[c % ${FIRST.length} + 1] || ' ' || case when c % 1000 = 999 then ${lit(RARE_NAME)} else (${arr(LAST)})[(c / ${FIRST.length}) % ${LAST.length} + 1] end,
        'active', '{}'::jsonb, ${ts("cms")}, ${ts("cms")}
      from ${conversationRows}`,
  });
  out.push({
    table: "conversations",
    sql: `insert into conversations (id, project_id, contact_id, last_channel_id, started_at, last_message_at, created_at, updated_at)
      select ${idOf("conv", "cms", "c")}, ${P}, ${idOf("ct", "cms", "c")}, ${lit(t.channelId)}, ${ts("cms")}, ${ts("lms")}, ${ts("cms")}, ${ts("lms")}
      from ${conversationRows}`,
  });
  const [m0, m1] = r.messages;
  // Even turns the customer's (inbound, delivered), odd the business's reply (outbound, read).
  out.push({
    table: "messages",
    sql: `insert into messages (id, project_id, conversation_id, contact_id, channel_id, direction, type, status, content, body,
        platform_message_id, recipient, provider_timestamp, timestamp, created_at, updated_at)
      select ${idOf("msg", "ms", "i")}, ${P}, ${idOf("conv", "cms", "c")}, ${idOf("ct", "cms", "c")}, ${lit(t.channelId)}, dir, 'text',
        case when dir = 'inbound' then 'delivered' else 'read' end, txt,
        case when dir = 'inbound' then jsonb_build_object('id', 'wamid.growth' || i, 'type', 'text', 'text', txt) else jsonb_build_object('kind', 'text', 'text', txt) end,
        'wamid.growth' || i, case when dir = 'outbound' then ${phone("c")} end, case when dir = 'inbound' then ${ts("ms")} end, ${ts("ms")}, ${ts("ms")}, ${ts("ms")}
      from (select i, c, ${msOf(t, F.messages, "i")} as ms, ${conversationMs(t, "c")} as cms,
              case when (i % 10000) / 1000 % 2 = 0 then 'inbound' else 'outbound' end as dir, 'growth message ' || i as txt
            from (select i, ${conversationOf("i")} as c from generate_series(${m0}::bigint, ${m1 - 1}) i) x) s`,
  });
  const [d0, d1] = r.deliveries;
  // 60 % message.received, 35 % message.status, 5 % participant.joined; 1 % of deliveries failed.
  const deliveryRows = `(select i, ${msOf(t, F.deliveries, "i")} as ms,
      case when i % 20 < 12 then 'message.received' when i % 20 < 19 then 'message.status' else 'participant.joined' end as ty
    from generate_series(${d0}::bigint, ${d1 - 1}) i) s`;
  out.push({
    table: "events",
    sql: `insert into events (id, project_id, type, payload, deliver, route, created_at)
      select ${idOf("evt", "ms", "i")}, ${P}, ty, jsonb_build_object('id', ${idOf("evt", "ms", "i")}, 'type', ty, 'created_at', ${ts("ms")}), true, 'external', ${ts("ms")}
      from ${deliveryRows}`,
  });
  out.push({
    table: "webhook_deliveries",
    sql: `insert into webhook_deliveries (id, project_id, event_id, event_type, status, attempt_count, last_status_code, last_error, trigger, completed_at, created_at, updated_at)
      select ${idOf("wd", "ms", "i")}, ${P}, ${idOf("evt", "ms", "i")}, ty,
        case when i % 100 = 42 then 'failed' else 'succeeded' end, case when i % 100 = 42 then 6 else 1 end,
        case when i % 100 = 42 then 500 else 200 end, case when i % 100 = 42 then 'HTTP 500' end, 'event',
        ${ts("ms + 200")}, ${ts("ms")}, ${ts("ms + 200")}
      from ${deliveryRows}`,
  });
  out.push({
    table: "webhook_attempts",
    sql: `insert into webhook_attempts (id, delivery_id, project_id, attempt_number, url, started_at, duration_ms, status_code, error, response_excerpt, created_at)
      select ${idOf("wa", "ms", "i")}, ${idOf("wd", "ms", "i")}, ${P}, case when i % 100 = 42 then 6 else 1 end, 'https://hooks.example.com/svc',
        ${ts("ms + 50")}, 40 + i % 160, case when i % 100 = 42 then 500 else 200 end, null, case when i % 100 = 42 then 'Internal Server Error' else 'ok' end, ${ts("ms + 200")}
      from ${deliveryRows}`,
  });
  const [v0, v1] = r.invocations;
  out.push({
    table: "function_invocations",
    sql: `insert into function_invocations (id, project_id, function_id, event_type, status, cpu_ms, sub_requests, duration_ms, error, logs, input, result, result_bytes, started_at, created_at)
      select ${idOf("fninv", "ms", "i")}, ${P}, ${functionIdSql(t, `i % ${GROWTH_FUNCTIONS}`)},
        (array['automation','invoke','automation','agent_tool','test'])[i % 5 + 1], case when i % 50 = 7 then 'error' else 'ok' end,
        1 + i % 9, i % 3, 3 + i % 40, case when i % 50 = 7 then 'Error: upstream 502' end,
        jsonb_build_array(jsonb_build_object('level', 'log', 'message', 'run ' || i)), jsonb_build_object('n', i), jsonb_build_object('ok', true), 11, ${ts("ms")}, ${ts("ms")}
      from (select i, ${msOf(t, F.invocations, "i")} as ms from generate_series(${v0}::bigint, ${v1 - 1}) i) s`,
  });
  const [a0, a1] = r.audit;
  out.push({
    table: "audit_events",
    sql: `insert into audit_events (id, project_id, organization_id, actor_type, actor_id, actor_display, action, target_type, target_id, details, ip, created_at)
      select ${idOf("aud", "ms", "i")}, ${P}, ${lit(t.organizationId)}, 'api_key', 'key_growth', 'svc_live_…grow',
        (array['webhook.updated','key.created','function.deployed','template.created'])[i % 4 + 1],
        (array['project','api_key','function','template'])[i % 4 + 1], 'growth_' || i, jsonb_build_object('n', i), '127.0.0.1', ${ts("ms")}
      from (select i, ${msOf(t, F.audit, "i")} as ms from generate_series(${a0}::bigint, ${a1 - 1}) i) s`,
  });
  return out;
}

/** The id of conversation c as the seed made it (for cursors and the message history). */
export async function conversationIdOf(sql: Sql, t: GrowthTarget, c: number): Promise<string> {
  const [row] = await sql.unsafe<{ id: string }[]>(
    `select ${idOf("conv", "cms", "c")} as id from (select ${c}::bigint as c, ${conversationMs(t, `${c}::bigint`)} as cms) s`,
  );
  return row!.id;
}

export async function functionIdOf(sql: Sql, t: GrowthTarget, k: number): Promise<string> {
  const [row] = await sql.unsafe<{ id: string }[]>(`select ${functionIdSql(t, String(k))} as id`);
  return row!.id;
}

/** Runs one step's statements (each in its own transaction), ANALYZEs the tables and checkpoints; seconds per table. */
export async function seedStep(sql: Sql, t: GrowthTarget, r: GrowthRange, first: boolean): Promise<Record<string, number>> {
  const seconds: Record<string, number> = {};
  for (const s of seedStatements(t, r, first)) {
    const started = performance.now();
    await sql.unsafe(s.sql);
    seconds[s.table] = Math.round((performance.now() - started) / 100) / 10;
  }
  const started = performance.now();
  await sql.unsafe(
    `analyze contacts, conversations, messages, events, webhook_deliveries, webhook_attempts, function_invocations, audit_events, hosted_functions`,
  );
  seconds.analyze = Math.round((performance.now() - started) / 100) / 10;
  // The load writes gigabytes of WAL: the checkpoint it sets off would otherwise still be running (for
  // minutes, checkpoint_completion_target) while the next size is measured, and commits there stalled.
  const checkpoint = performance.now();
  await sql.unsafe(`checkpoint`);
  seconds.checkpoint = Math.round((performance.now() - checkpoint) / 100) / 10;
  return seconds;
}

/** The rows of the first step (10,000 of each large table) and of the second (the rest). */
export function growthRanges(): { small: GrowthRange; rest: GrowthRange } {
  const F = GROWTH_FULL;
  const small: GrowthRange = {
    conversations: [0, 1000],
    messages: [0, 10_000],
    deliveries: [0, 10_000],
    invocations: [0, 10_000],
    audit: [0, 10_000],
  };
  const rest = Object.fromEntries(Object.entries(small).map(([k, [, to]]) => [k, [to, F[k as GrowthTable]]])) as GrowthRange;
  return { small, rest };
}

/**
 * What the media and flow-dispatch sweeps find on a day at this scale, past its deadline: 1,000,000
 * messages in 30 days are ~33,000 a day; one in ten carries a file (3,333 media rows, cached, no
 * bytes in storage) and one in ten is a flow sent to the customer (3,333 dispatches still SENT).
 */
export async function seedSweepRows(sql: Sql, t: GrowthTarget): Promise<{ media: number; dispatches: number }> {
  const P = lit(t.projectId);
  const day = 3333;
  const expired = `to_timestamp(${t.t0} / 1000.0) + interval '1 day'`;
  await sql.unsafe(`insert into media (id, project_id, message_id, provider, provider_media_id, type, mime_type, file_size, status, attempts, cached_at, expires_at, created_at, updated_at)
    select ${idOf("med", "ms", "n")}, ${P}, m.id, 'platform_a', 'growth-media-' || n, 'image', 'image/jpeg', 120000, 'available', 1,
      ${ts("ms")}, ${expired}, ${ts("ms")}, ${ts("ms")}
    from (select id, row_number() over (order by id)::bigint as n, (extract(epoch from timestamp) * 1000)::bigint as ms
          from messages where project_id = ${P} and direction = 'inbound' order by id limit ${day}) m`);
  const [{ id: flowId }] = await sql.unsafe<[{ id: string }]>(`select ${idOf("flow", `${t.t0}::bigint`, "0::bigint")} as id`);
  await sql.unsafe(
    `insert into flows (id, project_id, name, status, runtime_mode, published_version) values ('${flowId}', ${P}, 'Growth flow', 'PUBLISHED', 'STATIC', 1)`,
  );
  await sql.unsafe(`insert into flow_dispatches (id, project_id, flow_id, flow_version, flow_token, channel_id, status, expires_at, created_at)
    select ${idOf("fd", "ms", "n")}, ${P}, '${flowId}', 1, 'growth-token-' || n, ${lit(t.channelId)}, 'SENT', ${expired}, ${ts("ms")}
    from (select n, ${t.t0}::bigint + n * 25920 as ms from generate_series(0::bigint, ${day - 1}) n) s`);
  await sql.unsafe(`analyze media, flow_dispatches`);
  return { media: day, dispatches: day };
}
