/**
 * Hostile calls to the DATA_EXCHANGE endpoint of the production build (issue 31, item 4): signed with
 * the simulator's app secret so they get past the signature, then a `%00` flow id, an IV that decodes
 * to 0 bytes, a 1 MiB IV and a NUL in the decrypted flow_token, each of which answered 500. The
 * contract's answers are 404, 421, 421 and 427 (docs/spec/decisions.md "Flows"). tests/flows/
 * exchange-malformed.test.ts holds the full table; these rows check the built server end to end.
 */
import { randomBytes } from "node:crypto";
import { encryptFlowRequest } from "@/lib/domain/flows/exchange/crypto";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { waitUntil, type HttpRequest } from "../../../bench/load";
import { SANDBOX_CHANNEL } from "../../../bench/provider-inbound";
import type { FaultContext } from "../context";

interface Answer {
  status: number | null;
  contentType: string;
  body: string;
  ms: number;
  note?: string;
}

interface EndpointRow {
  name: string;
  expect: number[];
  apiShape: boolean;
  run: () => Promise<Answer>;
}

const DRAFT = {
  entryScreenId: "ASK",
  screens: [{ id: "ASK", title: "Booking", fields: [{ name: "day", type: "text", label: "Day", required: true }], submit_label: "Send" }],
};

/** A published DATA_EXCHANGE flow and the sandbox number's public key, or why there is none. */
async function publishedFlow(ctx: FaultContext): Promise<{ flowId: string; publicKeyPem: string } | { error: string }> {
  const { stack } = ctx;
  const created = await stack.api<{ id: string }>("POST", "/flows", {
    name: `Hostile ${ctx.token}`,
    runtime_mode: "DATA_EXCHANGE",
    data_exchange_url: ctx.fast.url,
    draft: DRAFT,
  });
  if (created.status !== 200) return { error: `POST /flows: ${created.status} ${JSON.stringify(created.body).slice(0, 200)}` };
  const flowId = created.body.id;
  const published = await stack.api("POST", `/flows/${flowId}/publish`);
  if (published.status !== 200) return { error: `publish: ${published.status} ${JSON.stringify(published.body).slice(0, 200)}` };
  const key = await waitUntil(
    async () => {
      const flow = await stack.api<{ meta_status: string | null }>("GET", `/flows/${flowId}`);
      if (flow.body.meta_status !== "PUBLISHED") return null;
      const [row] = await stack.q<{ key: string | null }>("select flow_public_key as key from channels where id = $1", [SANDBOX_CHANNEL]);
      return row?.key ?? null;
    },
    30_000,
    250,
  );
  return key ? { flowId, publicKeyPem: key } : { error: "the DATA_EXCHANGE flow was not PUBLISHED with a registered key within 30 s" };
}

export async function flowEndpointRows(ctx: FaultContext, ask: (req: HttpRequest) => Promise<Answer>): Promise<EndpointRow[]> {
  const setup = await publishedFlow(ctx);
  const secret = simulatorAppSecret("PLATFORM_A");
  const post = (flowId: string, raw: string) =>
    ask({
      method: "POST",
      url: `${ctx.stack.base}/api/providers/platform-a/flows/${flowId}/endpoint`,
      headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(secret, raw) },
      body: raw,
    });
  const withFlow = (call: (flow: { flowId: string; publicKeyPem: string }) => Promise<Answer>) => () =>
    "error" in setup ? Promise.resolve<Answer>({ status: null, contentType: "", body: "", ms: 0, note: setup.error }) : call(setup);
  const encrypted = (publicKeyPem: string, payload: Record<string, unknown>) => encryptFlowRequest(payload, publicKeyPem).body;
  return [
    {
      name: "flow endpoint: %00 flow id (signed)",
      expect: [404],
      apiShape: false,
      run: () => post("%00", "{}"),
    },
    {
      name: "flow endpoint: IV of 0 bytes",
      expect: [421],
      apiShape: false,
      run: withFlow(({ flowId, publicKeyPem }) => post(flowId, JSON.stringify({ ...encrypted(publicKeyPem, { action: "ping" }), initial_vector: "====" }))),
    },
    {
      name: "flow endpoint: 1 MiB IV",
      expect: [421],
      apiShape: false,
      run: withFlow(({ flowId, publicKeyPem }) =>
        post(flowId, JSON.stringify({ ...encrypted(publicKeyPem, { action: "ping" }), initial_vector: randomBytes(1024 * 1024).toString("base64") })),
      ),
    },
    {
      name: "flow endpoint: NUL in the flow_token",
      expect: [427],
      apiShape: false,
      run: withFlow(({ flowId, publicKeyPem }) =>
        post(flowId, JSON.stringify(encrypted(publicKeyPem, { version: "3.0", action: "INIT", flow_token: "svcft_\u0000" }))),
      ),
    },
  ];
}
