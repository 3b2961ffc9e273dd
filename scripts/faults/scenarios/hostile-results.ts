/**
 * 5. Hostile function results against the production server: functions deployed through the API
 * return or log what Postgres cannot store (a lone surrogate, NUL in keys and values, a replaced
 * JSON.stringify) or hand env.KV a NUL key. Every invoke answers 200 with the expected status (never
 * a 500), no error carries SQL, and the invocation log holds exactly one row per call
 * (docs/api-decisions.md "Hosted functions"); a NUL in a log line is kept whole. Three 50 MB results at
 * once end result_too_large beside a run that ends ok (the engine aborted on those). Items 1, 6 and 7
 * of issue 31.
 */
import { performance } from "node:perf_hooks";
import { randomBase62 } from "../../../bench/env";
import type { FaultContext } from "../context";
import { ms, type Report } from "../report";

interface Case {
  name: string;
  source: string;
  status: "ok" | "error";
  /** The run's result (status ok) or the start of its error (status error). */
  expect: unknown;
  /** The stored log lines, when the case is about them. */
  logs?: string[];
}

const CASES: Case[] = [
  { name: "lone surrogate string", source: 'export default async () => "a\\ud800b";', status: "ok", expect: "a\uFFFDb" },
  {
    name: "NUL in an object's key and value",
    source: 'export default async () => ({ ["k\\u0000"]: "v\\u0000" });',
    status: "ok",
    expect: { "k\u2400": "v\u2400" },
  },
  {
    name: "replaced JSON.stringify, not JSON",
    source: 'export default async () => { JSON.stringify = () => "not json"; return { a: 1 }; };',
    status: "error",
    expect: "invalid_result: ",
  },
  {
    name: "replaced JSON.stringify, escaped NUL",
    source: 'export default async () => { JSON.stringify = () => \'{"a":"x\\\\u0000y"}\'; return 1; };',
    status: "ok",
    expect: { a: "x\u2400y" },
  },
  {
    name: "env.KV with a NUL key",
    source: 'export default async () => env.KV.put("a\\u0000b", "v").then(() => "stored", (e) => e.message);',
    status: "ok",
    expect: "KV keys cannot contain a NUL character (\\u0000)",
  },
  {
    name: "NUL and a lone surrogate in log lines",
    source: 'export default async () => { console.log("before\\u0000after"); console.log("x\\ud800y"); return 1; };',
    status: "ok",
    expect: 1,
    logs: ["before\u2400after", "x\uFFFDy"],
  },
];

const SQL_TEXT = /insert into|select |params:|Failed query/i;

interface InvokeAnswer {
  status?: string;
  result?: unknown;
  error?: string | null;
  invocation_id?: string;
}

export async function hostileResultsScenario(ctx: FaultContext, r: Report): Promise<void> {
  const { stack } = ctx;
  const suffix = randomBase62(6).toLowerCase();
  let passed = 0;
  let serverErrors = 0;
  let worst = 0;
  for (const [i, c] of CASES.entries()) {
    const created = await stack.api<{ id: string }>("POST", "/functions", { slug: `hostile-${i}-${suffix}`, name: c.name, trigger_type: "KEYWORD" });
    if (!r.check(created.status === 200, `${c.name}: create answered ${created.status} ${JSON.stringify(created.body)}`)) continue;
    const fn = created.body.id;
    const deploy = await stack.api<{ status: string }>("POST", `/functions/${fn}/deploy`, { source: c.source });
    if (!r.check(deploy.status === 200 && deploy.body.status === "ok", `${c.name}: deploy answered ${deploy.status} ${JSON.stringify(deploy.body)}`)) continue;

    const started = performance.now();
    const invoked = await stack.api<InvokeAnswer>("POST", `/functions/${fn}/invoke`, {});
    const took = performance.now() - started;
    worst = Math.max(worst, took);
    if (invoked.status >= 500) serverErrors++;
    const log = await stack.api<{ data: { id: string; status: string; logs: { message: string }[] }[] }>("GET", `/functions/${fn}/invocations`);
    const rows = log.status === 200 ? log.body.data : [];
    const body = invoked.body;
    const outcome =
      c.status === "ok" ? JSON.stringify(body.result) === JSON.stringify(c.expect) : typeof body.error === "string" && body.error.startsWith(String(c.expect));
    const checks = [
      r.check(invoked.status === 200, `${c.name}: invoke answered ${invoked.status} ${JSON.stringify(body).slice(0, 200)}`),
      r.check(
        body.status === c.status && outcome,
        `${c.name}: ${body.status} ${JSON.stringify(body.result)} ${body.error ?? ""}, expected ${c.status} ${JSON.stringify(c.expect)}`,
      ),
      r.check(!SQL_TEXT.test(JSON.stringify(body)), `${c.name}: the answer carries SQL: ${JSON.stringify(body).slice(0, 200)}`),
      r.check(rows.length === 1 && rows[0]?.id === body.invocation_id, `${c.name}: ${rows.length} invocation rows for one call (GET ${log.status})`),
    ];
    if (checks.every(Boolean)) passed++;
    if (c.logs) {
      const messages = (rows[0]?.logs ?? []).map((line) => line.message);
      r.check(JSON.stringify(messages) === JSON.stringify(c.logs), `${c.name}: logs ${JSON.stringify(messages)}, expected ${JSON.stringify(c.logs)}`);
    }
    r.info(`${c.name.padEnd(40)} → ${invoked.status} ${body.status} ${body.error ?? JSON.stringify(body.result)}, ${ms(took)}; ${rows.length} row`);
  }
  const oversized = await oversizedBesideTrivial(ctx, r, suffix);
  r.check(stack.alive(stack.web) && stack.alive(stack.worker), "a process died during the hostile function results");
  r.summary = `${passed}/${CASES.length} cases ok, ${serverErrors} × 500, one invocation row per call; slowest invoke ${ms(worst)}; ${oversized}`;
}

async function deployed(ctx: FaultContext, r: Report, slug: string, source: string): Promise<string | null> {
  const created = await ctx.stack.api<{ id: string }>("POST", "/functions", { slug, name: slug, trigger_type: "KEYWORD" });
  if (!r.check(created.status === 200, `${slug}: create answered ${created.status} ${JSON.stringify(created.body)}`)) return null;
  const deploy = await ctx.stack.api<{ status: string }>("POST", `/functions/${created.body.id}/deploy`, { source });
  return r.check(deploy.status === 200 && deploy.body.status === "ok", `${slug}: deploy answered ${deploy.status}`) ? created.body.id : null;
}

/**
 * Item 6: a replaced JSON.stringify that makes 50 MB made QuickJS abort at runtime disposal. Three such
 * runs at once end result_too_large while another function's run beside them ends ok.
 */
async function oversizedBesideTrivial(ctx: FaultContext, r: Report, suffix: string): Promise<string> {
  const huge = await deployed(
    ctx,
    r,
    `oversized-${suffix}`,
    "export default async () => { JSON.stringify = () => 'x'.repeat(1e6).repeat(50); return { a: 1 }; };",
  );
  const trivial = await deployed(ctx, r, `trivial-${suffix}`, 'export default async () => "fine";');
  if (!huge || !trivial) return "oversized results not run";
  const started = performance.now();
  const answers = await Promise.all([
    ...[1, 2, 3].map(() => ctx.stack.api<InvokeAnswer>("POST", `/functions/${huge}/invoke`, {})),
    ctx.stack.api<InvokeAnswer>("POST", `/functions/${trivial}/invoke`, {}),
  ]);
  const took = performance.now() - started;
  const plain = answers.pop()!;
  const tooLarge = answers.filter((a) => a.status === 200 && a.body.status === "error" && String(a.body.error).startsWith("result_too_large")).length;
  r.check(tooLarge === 3, `oversized results: ${tooLarge}/3 ended result_too_large: ${answers.map((a) => `${a.status} ${a.body.error}`).join("; ")}`);
  r.check(
    plain.status === 200 && plain.body.status === "ok" && plain.body.result === "fine",
    `the run beside them: ${plain.status} ${JSON.stringify(plain.body)}`,
  );
  return `3 × 50 MB result_too_large (${tooLarge}/3) beside an ok run, ${ms(took)}`;
}
