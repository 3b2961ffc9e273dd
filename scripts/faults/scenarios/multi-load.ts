/**
 * The multi-process scenario's traffic (multi-process.ts): spread round-robin over the cluster's web
 * processes as a load balancer would, which takes a process out of rotation when its readiness
 * answers 503 (SIGTERM) or a connection to it fails (SIGKILL), and resends what failed on the network
 * to the other one: the provider resends a delivery as is, an API client resends with its
 * Idempotency-Key. Every answer is kept with the process that gave it.
 */
import type http from "node:http";
import { randomBase62 } from "../../../bench/env";
import { send, type HttpAnswer, type HttpRequest } from "../../../bench/load";
import { providerTextDelivery, type SandboxNumber } from "../../../bench/provider-inbound";
import type { Cluster, WebProc } from "../cluster";

export interface Answered {
  web: string;
  what: string;
  status: number;
  /** The network error, when the request got no answer (status 0). */
  error: string | null;
  at: number;
}

export class SpreadLoad {
  readonly answers: Answered[] = [];
  /** Accepted POST /messages: the message ids. */
  readonly sent: string[] = [];
  /** Inbound deliveries the provider endpoint took (200): the provider's message ids. */
  readonly inbound: string[] = [];
  invokes = 0;
  private next = 0;
  private readonly out = new Set<string>();

  constructor(
    private readonly cluster: Cluster,
    private readonly agent: http.Agent,
    private readonly key: string,
  ) {}

  /** Out of rotation (its readiness said 503, or it is being stopped); back in when started again. */
  takeOut(web: WebProc): void {
    this.out.add(web.name);
  }

  putBack(web: WebProc): void {
    this.out.delete(web.name);
  }

  private pick(): WebProc | null {
    const webs = this.cluster.webs.filter((w) => !this.out.has(w.name) && this.cluster.alive(w.proc));
    if (!webs.length) return null;
    return webs[this.next++ % webs.length]!;
  }

  /** Sends `build(base)` to the next web in rotation; on a network error, to another (3 tries). */
  async request(what: string, build: (base: string) => HttpRequest): Promise<HttpAnswer | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const web = this.pick();
      if (!web) return null;
      try {
        const answer = await send(this.agent, { timeoutMs: 20_000, ...build(web.base) });
        this.answers.push({ web: web.name, what, status: answer.status, error: null, at: Date.now() });
        return answer;
      } catch (error) {
        this.answers.push({ web: web.name, what, status: 0, error: error instanceof Error ? error.message : String(error), at: Date.now() });
        this.takeOut(web);
      }
    }
    return null;
  }

  private api(method: string, path: string, json?: unknown, headers: Record<string, string> = {}) {
    return (base: string): HttpRequest => ({
      method,
      url: `${base}/api/v1${path}`,
      headers: { authorization: `Bearer ${this.key}`, ...(json !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  }

  /** POST /messages with an Idempotency-Key kept across resends. */
  async sendText(conversationId: string, text: string): Promise<void> {
    const headers = { "idempotency-key": `faults-multi-${randomBase62(16)}` };
    const answer = await this.request("send", this.api("POST", "/messages", { channel_id: "ch_sandbox", conversation_id: conversationId, text }, headers));
    if (answer?.status === 200) this.sent.push((JSON.parse(answer.body) as { id: string }).id);
  }

  /** A signed provider delivery of a customer text; the same bytes on every resend. */
  async inboundText(sandbox: SandboxNumber, from: string, text: string): Promise<void> {
    const { id, request } = providerTextDelivery("http://127.0.0.1", sandbox, from, text);
    const answer = await this.request("inbound", (base) => ({ ...request, url: `${base}/api/providers/platform-a/webhook` }));
    if (answer?.status === 200) this.inbound.push(id);
  }

  async invoke(functionId: string): Promise<void> {
    const answer = await this.request("invoke", this.api("POST", `/functions/${functionId}/invoke`, { arguments: { n: this.invokes } }));
    if (answer?.status === 200) this.invokes++;
  }

  /** Answers of `web` given at or after `since` (ms), and the ones among them that are 5xx or got none. */
  answersOf(web: string, since: number): { total: number; bad: Answered[] } {
    const mine = this.answers.filter((a) => a.web === web && a.at >= since);
    return { total: mine.length, bad: mine.filter((a) => a.status === 0 || a.status >= 500) };
  }
}
