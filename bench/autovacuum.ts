import type { Sql } from "postgres";
import { sleep } from "./load";

/**
 * Every production Postgres runs autovacuum; this machine's runs without it (its CI configuration turns
 * it off). Without it no table of the bench's fresh database is ever analyzed or vacuumed, and that
 * is not a server anyone runs the product on: the queue's statements are prepared with generic plans
 * (lib/ports/db/open.ts QUEUE_POOL) while pgboss.job_common is empty, and nothing ever makes Postgres
 * plan them again, so each fetch and completion went on reading every job the run had made (753 and
 * 2,455 buffers per call after 30,000 jobs; the same fetch planned with the table's statistics read 24;
 * 2026-11-30, README "Performance"). An ANALYZE both records the statistics and makes each session plan
 * the table's statements again.
 *
 * So on a server without autovacuum the bench does what autovacuum would, with its settings read from
 * the server: once per `autovacuum_naptime`, each table of the database whose dead rows, inserted rows
 * or changed rows have passed autovacuum's thresholds is vacuumed or analyzed, one at a time, with
 * autovacuum's cost-based delay. Nothing when autovacuum is on.
 */
export function standInForAutovacuum(
  sql: Sql,
  log: (line: string) => void,
  enabled = true,
): { passNow(): Promise<void>; overlapMs(start: number, end: number): number; stop(): Promise<{ vacuums: number; analyzes: number }> } {
  let stopped = false;
  const done = { vacuums: 0, analyzes: 0 };
  /** Each pass that vacuumed or analyzed something (epoch ms), and when the one running began. */
  const passes: { start: number; end: number }[] = [];
  let runningSince: number | null = null;
  /** Callers of passNow() waiting for the pass that starts next (the loop's own or an early one). */
  let waiting: (() => void)[] = [];
  let finished = false;
  const loop = standIn()
    .catch((error: unknown) => log(`autovacuum's stand-in stopped: ${String(error)}`))
    .finally(() => {
      finished = true;
      for (const resolve of waiting.splice(0)) resolve();
    });
  async function standIn(): Promise<void> {
    const [settings] = await sql<Settings[]>`
      select current_setting('autovacuum') as autovacuum,
        extract(epoch from current_setting('autovacuum_naptime')::interval)::float8 as naptime,
        current_setting('autovacuum_vacuum_threshold')::float8 as vacuum_base,
        current_setting('autovacuum_vacuum_scale_factor')::float8 as vacuum_scale,
        current_setting('autovacuum_vacuum_insert_threshold')::float8 as insert_base,
        current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale,
        current_setting('autovacuum_analyze_threshold')::float8 as analyze_base,
        current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale,
        current_setting('autovacuum_vacuum_cost_delay') as cost_delay,
        case when current_setting('autovacuum_vacuum_cost_limit')::int > 0
          then current_setting('autovacuum_vacuum_cost_limit') else current_setting('vacuum_cost_limit') end as cost_limit`;
    if (!settings || settings.autovacuum === "on") return;
    if (!enabled) return log("autovacuum is off on this server and BENCH_AUTOVACUUM_STAND_IN=0: nothing stands in for it");
    log(`autovacuum is off on this server: the bench stands in for it every ${settings.naptime} s (bench/autovacuum.ts)`);
    // Autovacuum's workers throttle themselves; a plain VACUUM does not unless told to.
    await sql.unsafe(`set vacuum_cost_delay = '${settings.cost_delay}'; set vacuum_cost_limit = ${Number(settings.cost_limit)}`);
    const ticks = Math.max(1, Math.round((settings.naptime * 1000) / 250));
    while (!stopped) {
      for (let i = 0; i < ticks && !stopped && waiting.length === 0; i++) await sleep(250);
      if (stopped) break;
      const answered = waiting;
      waiting = [];
      // A table dropped or locked meanwhile is not a reason to stop standing in.
      const tables = await due(sql, settings).catch((error: unknown) => (log(`autovacuum's stand-in: ${String(error)}`), []));
      const start = Date.now();
      runningSince = start;
      let longest = { what: "", ms: 0 };
      for (const table of tables) {
        if (stopped) break;
        const name = `"${table.schema}"."${table.name}"`;
        const what = `${table.vacuum ? "vacuum" : "analyze"} ${name}`;
        const began = Date.now();
        try {
          if (table.vacuum) {
            await sql.unsafe(`vacuum (analyze ${table.analyze ? "on" : "off"}) ${name}`);
            done.vacuums++;
          } else {
            await sql.unsafe(`analyze ${name}`);
          }
          if (table.analyze) done.analyzes++;
        } catch (error) {
          log(`autovacuum's stand-in: ${name}: ${String(error)}`);
        }
        if (Date.now() - began > longest.ms) longest = { what, ms: Date.now() - began };
      }
      runningSince = null;
      if (tables.length > 0) {
        const end = Date.now();
        passes.push({ start, end });
        // A phase whose window holds a pass shares the cores with it (bench/run.ts phase()).
        log(
          `autovacuum's stand-in: ${tables.length} tables in ${((end - start) / 1000).toFixed(1)} s (longest: ${longest.what}, ${(longest.ms / 1000).toFixed(1)} s)`,
        );
      }
      for (const resolve of answered) resolve();
    }
  }
  return {
    /**
     * One pass now, without waiting for the naptime: the bench calls it once its set-up is done, so
     * the measured phases start on tables autovacuum has seen, as a running server's are (a phase that
     * began before the first pass measured plans made on empty tables). Resolves at once when nothing
     * stands in.
     */
    passNow() {
      if (finished || stopped) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    /** Milliseconds of [start, end] (epoch ms) during which a pass was vacuuming or analyzing. */
    overlapMs(start: number, end: number) {
      return overlapMs(runningSince === null ? passes : [...passes, { start: runningSince, end: Date.now() }], start, end);
    },
    async stop() {
      stopped = true;
      await loop;
      return done;
    },
  };
}

/** How much of [start, end] the intervals cover (they do not overlap one another: passes run one at a time). */
export function overlapMs(intervals: readonly { start: number; end: number }[], start: number, end: number): number {
  return intervals.reduce((sum, interval) => sum + Math.max(0, Math.min(end, interval.end) - Math.max(start, interval.start)), 0);
}

interface Settings {
  autovacuum: string;
  naptime: number;
  vacuum_base: number;
  vacuum_scale: number;
  insert_base: number;
  insert_scale: number;
  analyze_base: number;
  analyze_scale: number;
  cost_delay: string;
  cost_limit: string;
}

/** The tables autovacuum would act on now: its thresholds (autovacuum.c relation_needs_vacanalyze). */
async function due(sql: Sql, s: Settings) {
  return sql<{ schema: string; name: string; vacuum: boolean; analyze: boolean }[]>`
    select schema, name, do_vacuum as vacuum, do_analyze as analyze from (
      select t.schemaname as schema, t.relname as name,
        (t.n_dead_tup > ${s.vacuum_base} + ${s.vacuum_scale} * greatest(c.reltuples, 0)
          or t.n_ins_since_vacuum > ${s.insert_base} + ${s.insert_scale} * greatest(c.reltuples, 0)) as do_vacuum,
        t.n_mod_since_analyze > ${s.analyze_base} + ${s.analyze_scale} * greatest(c.reltuples, 0) as do_analyze
      from pg_stat_user_tables t join pg_class c on c.oid = t.relid
    ) candidates
    where do_vacuum or do_analyze
    order by schema, name`;
}
