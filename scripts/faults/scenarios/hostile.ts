/**
 * 4. Hostile inputs against the production server: NUL and lone surrogates in body, query and path;
 * prototype-named keys; 10,000 levels of nesting with an Idempotency-Key; 20 MB bodies on /api/v1 and
 * on the unauthenticated provider endpoint; malformed percent-encoding in a path on every mount, one by
 * one and as a concurrent burst (malformed-paths.ts); malformed calls to the Flow data-exchange endpoint
 * (hostile-flow-endpoint.ts). No answer
 * may be a 500, /api/v1 errors must have the JSON error shape, and a provider message carrying a NUL
 * or a lone surrogate must be stored (as U+FFFD) and delivered.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import { assertLoopback, send, waitUntil, type HttpRequest } from "../../../bench/load";
import type { FaultContext } from "../context";
import { ms, type Report } from "../report";
import { flowEndpointRows } from "./hostile-flow-endpoint";
import { MALFORMED_PATHS, malformedPathBurst } from "./malformed-paths";

const BIG_BYTES = 20 * 1024 * 1024;
/** A tracked defect (issue 13): Next answers a plain-text 500 before our router when a path segment does not percent-decode. */

interface Answer {
  status: number | null;
  contentType: string;
  body: string;
  ms: number;
  note?: string;
}

interface Row {
  name: string;
  expect: number[];
  /** /api/v1 answers carry the JSON error shape {error, message}. */
  apiShape: boolean;
  /** Printed beside a failure of this row (a known, tracked defect). */
  known?: string;
  run: () => Promise<Answer>;
}

/**
 * Streams `size` bytes (a JSON prefix then filler) and stops writing as soon as an answer arrives: a
 * server that refuses a too-large body answers before reading it all and may close the connection.
 */
function sendLarge(url: string, headers: Record<string, string>, size: number): Promise<Answer> {
  const target = assertLoopback(url);
  const started = performance.now();
  return new Promise((resolve) => {
    let answered = false;
    let written = 0;
    const finish = (a: Answer) => {
      if (answered) return;
      answered = true;
      resolve(a);
    };
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": size },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          finish({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
            note: `${(written / 2 ** 20).toFixed(1)} MiB written before the answer`,
          }),
        );
        res.on("error", () => {});
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error("timeout after 30 s")));
    req.on("error", (error) =>
      finish({
        status: null,
        contentType: "",
        body: "",
        ms: performance.now() - started,
        note: `no HTTP answer: ${error.message} after ${(written / 2 ** 20).toFixed(1)} MiB`,
      }),
    );
    const head = Buffer.from('{"channel_id":"ch_sandbox","text":"');
    const chunk = Buffer.alloc(64 * 1024, "x".charCodeAt(0));
    const pump = () => {
      while (!answered && written < size) {
        const piece = written === 0 ? head : chunk.subarray(0, Math.min(chunk.length, size - written));
        written += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

export async function hostileScenario(ctx: FaultContext, r: Report): Promise<void> {
  const { stack } = ctx;
  await stack.setWebhook(ctx.fast.url);
  const v1 = `${stack.base}/api/v1`;
  const json = { ...stack.auth, "content-type": "application/json" };
  const conversation = stack.freshConversation();
  const ask = async (req: HttpRequest): Promise<Answer> => {
    try {
      const a = await send(stack.agent, { timeoutMs: 30_000, ...req });
      return { status: a.status, contentType: String(a.headers["content-type"] ?? ""), body: a.body, ms: a.ms };
    } catch (error) {
      return { status: null, contentType: "", body: "", ms: 0, note: `no HTTP answer: ${error instanceof Error ? error.message : error}` };
    }
  };
  const postMessage = (body: string, headers: Record<string, string> = {}) =>
    ask({ method: "POST", url: `${v1}/messages`, headers: { ...json, ...headers }, body });
  const get = (path: string) => ask({ method: "GET", url: `${v1}${path}`, headers: stack.auth });
  const message = (extra: Record<string, unknown>) => JSON.stringify({ channel_id: "ch_sandbox", conversation_id: conversation, ...extra });
  const nesting = `{"channel_id":"ch_sandbox","conversation_id":"${conversation}","text":"deep","metadata":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
  const protoKeys = '"__proto__":{"polluted":"yes","admin":true},"constructor":{"prototype":{"polluted":"yes"}},"toString":"x","hasOwnProperty":"x"';

  const rows: Row[] = [
    { name: "body: NUL in a string (text)", expect: [400], apiShape: true, run: () => postMessage(message({ text: "a\u0000b" })) },
    { name: "body: lone surrogate \\ud800 (text)", expect: [400], apiShape: true, run: () => postMessage(message({ text: "a\ud800b" })) },
    { name: "body: NUL in a key", expect: [400], apiShape: true, run: () => postMessage(message({ text: "ok", "te\u0000xt": "x" })) },
    { name: "body: lone surrogate in a key", expect: [400], apiShape: true, run: () => postMessage(message({ text: "ok", "\udc00k": "x" })) },
    { name: "query: NUL (?starting_after=%00)", expect: [400], apiShape: true, run: () => get("/messages?starting_after=%00") },
    { name: "query: NUL in a search (?q=a%00b)", expect: [400], apiShape: true, run: () => get("/conversations?q=a%00b") },
    { name: "query: surrogate bytes (?q=%ED%A0%80)", expect: [200, 400], apiShape: true, run: () => get("/conversations?q=%ED%A0%80") },
    {
      name: "query: prototype names",
      expect: [200, 400],
      apiShape: true,
      run: () => get("/messages?__proto__=x&constructor=y&toString=z&hasOwnProperty=w&__proto__[polluted]=1"),
    },
    { name: "path: NUL (/messages/%00)", expect: [400, 404], apiShape: true, run: () => get("/messages/%00") },
    // Both are invalid UTF-8 for decodeURIComponent (URIError): the same path-decoding defect.
    { name: "path: surrogate bytes (/messages/%ED%A0%80)", expect: [400, 404], apiShape: true, run: () => get("/messages/%ED%A0%80") },
    { name: "path: malformed percent (/messages/%E0%A4%A)", expect: [400, 404], apiShape: true, run: () => get("/messages/%E0%A4%A") },
    { name: "query: malformed percent (?q=%E0%A4%A)", expect: [200, 400], apiShape: true, run: () => get("/conversations?q=%E0%A4%A") },
    {
      name: "body: prototype-named keys (POST /messages)",
      expect: [200, 400],
      apiShape: true,
      run: () => postMessage(`{${protoKeys},"channel_id":"ch_sandbox","conversation_id":"${conversation}","text":"${ctx.token}proto"}`),
    },
    {
      name: "body: prototype-named keys (PATCH /projects)",
      expect: [200, 400],
      apiShape: true,
      run: () => ask({ method: "PATCH", url: `${v1}/projects/${stack.projectId}`, headers: json, body: `{${protoKeys}}` }),
    },
    {
      name: "body: 10,000 levels + Idempotency-Key",
      expect: [400],
      apiShape: true,
      run: () => postMessage(nesting, { "idempotency-key": `deep-${ctx.token}` }),
    },
    { name: "body: the same again (same key)", expect: [400], apiShape: true, run: () => postMessage(nesting, { "idempotency-key": `deep-${ctx.token}` }) },
    { name: "body: 20 MB on POST /api/v1/messages", expect: [413], apiShape: true, run: () => sendLarge(`${v1}/messages`, stack.auth, BIG_BYTES) },
    {
      name: "body: 20 MB on the provider endpoint (unsigned)",
      expect: [413],
      apiShape: false,
      run: () => sendLarge(`${stack.base}/api/providers/platform-a/webhook`, {}, BIG_BYTES),
    },
    {
      name: "provider path: NUL (/api/providers/%00/webhook)",
      expect: [404],
      apiShape: false,
      run: () => ask({ method: "POST", url: `${stack.base}/api/providers/%00/webhook`, headers: { "content-type": "application/json" }, body: "{}" }),
    },
    ...(await flowEndpointRows(ctx, ask)),
    ...MALFORMED_PATHS.map(({ method, path }) => ({
      name: `malformed path: ${method} ${path}`,
      expect: [400],
      apiShape: true,
      run: () => ask({ method, url: `${stack.base}${path}`, headers: { ...stack.auth, "content-type": "application/json" }, body: "{}" }),
    })),
    { name: "after all that: GET /api/v1/identity", expect: [200], apiShape: true, run: () => get("/identity") },
  ];

  let worst = 0;
  const table: string[] = [];
  for (const row of rows) {
    const a = await row.run();
    worst = Math.max(worst, a.ms);
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(a.body) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    const shapeOk =
      !row.apiShape ||
      a.status === null ||
      a.status < 400 ||
      (/application\/json/.test(a.contentType) && typeof parsed?.error === "string" && typeof parsed?.message === "string");
    const ok = a.status !== null && row.expect.includes(a.status) && shapeOk;
    const what =
      a.status === null
        ? (a.note ?? "no answer")
        : `${a.status} ${parsed && typeof parsed.error === "string" ? parsed.error : JSON.stringify(a.body.slice(0, 60))}${a.note ? ` (${a.note})` : ""}`;
    table.push(`${ok ? "ok  " : "FAIL"} ${row.name.padEnd(50)} → ${what}, ${ms(a.ms)}  [expected ${row.expect.join("/")}]`);
    if (!ok) {
      const why =
        a.status === 500 && !/json/.test(a.contentType)
          ? `a plain-text 500 (${a.contentType || "no content-type"}) from Next itself: ${JSON.stringify(a.body.slice(0, 120))}`
          : !shapeOk
            ? `no JSON error shape {error, message}: ${a.contentType} ${a.body.slice(0, 200)}`
            : a.status === null
              ? (a.note ?? "no answer")
              : `${a.status} ${a.body.slice(0, 200)}`;
      r.fail(`${row.name}: ${why}; expected ${row.expect.join("/")}${row.known ? ` [known: ${row.known}]` : ""}`);
    }
  }
  for (const line of table) r.info(line);
  await malformedPathBurst(stack, r);

  // A provider message carrying a NUL or a lone surrogate: stored with U+FFFD, delivered, not lost.
  const cases = [
    { name: "NUL", text: `${ctx.token}hostile-nul-a\u0000b`, stored: `${ctx.token}hostile-nul-a\uFFFDb` },
    { name: "lone surrogate", text: `${ctx.token}hostile-sur-a\ud800b`, stored: `${ctx.token}hostile-sur-a\uFFFDb` },
  ];
  const sent: { name: string; id: string; stored: string }[] = [];
  for (const c of cases) {
    const { id, request } = stack.inbound(stack.testers[0]!, c.text);
    const a = await send(stack.agent, { ...request, timeoutMs: 15_000 });
    r.info(`provider message with a ${c.name} in its text (escaped in the JSON) → ${a.status}`);
    r.check(a.status === 200, `provider message with a ${c.name}: ${a.status} ${a.body.slice(0, 200)}`);
    sent.push({ name: c.name, id, stored: c.stored });
  }
  const settled = await waitUntil(
    async () => {
      const rows = await stack.q<{ id: string; content: string | null }>(
        "select platform_message_id as id, content from messages where channel_id = 'ch_sandbox' and platform_message_id = any($1)",
        [sent.map((s) => s.id)],
      );
      return rows.length === sent.length && sent.every((s) => ctx.received.some((d) => JSON.stringify(d.body).includes(s.id))) ? rows : null;
    },
    30_000,
    250,
  );
  const stored = await stack.q<{ id: string; content: string | null }>(
    "select platform_message_id as id, content from messages where channel_id = 'ch_sandbox' and platform_message_id = any($1)",
    [sent.map((s) => s.id)],
  );
  for (const s of sent) {
    const row = stored.find((x) => x.id === s.id);
    const delivered = ctx.received.find((d) => JSON.stringify(d.body).includes(s.id));
    const text = (delivered?.body as { payload?: { text?: unknown } } | undefined)?.payload?.text;
    r.info(`${s.name}: stored ${row ? JSON.stringify(row.content) : "NOTHING"}; delivered ${delivered ? `text ${JSON.stringify(text)}` : "NOTHING"}`);
    r.check(
      row?.content === s.stored,
      `provider message with a ${s.name}: stored ${row ? JSON.stringify(row.content) : "nothing"}, expected ${JSON.stringify(s.stored)}`,
    );
    r.check(
      text === s.stored,
      `provider message with a ${s.name}: ${delivered ? `delivered text ${JSON.stringify(text)}` : "not delivered within 30 s"}, expected ${JSON.stringify(s.stored)}`,
    );
  }
  r.check(settled !== null || r.failures.length > 0, "hostile inbound messages did not settle within 30 s");
  r.check(stack.alive(stack.web) && stack.alive(stack.worker), "a process died during the hostile inputs");
  const failedRows = table.filter((line) => line.startsWith("FAIL")).length;
  r.summary = `${rows.length - failedRows}/${rows.length} rows ok (slowest ${ms(worst)}); inbound NUL/surrogate: ${stored.length}/${sent.length} stored`;
}
