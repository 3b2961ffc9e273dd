import { and, asc, eq } from "drizzle-orm";
import { events, messages, projects } from "@/lib/db/schema";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { createTestApp, type TestApp } from "../support/app";
import type { RuntimeOptions } from "@/lib/server/runtime";
import { startTestServer, type TestServer } from "../support/http-server";

export interface Harness {
  app: TestApp;
  server: TestServer;
  /** Acts as a customer through the simulator (provider-signed webhook to our endpoint). */
  customer(input: Record<string, unknown>): Promise<{ message_id: string; delivered_status: number }>;
  /** A tester joins the project on the sandbox (`join <code>`) and the join is processed. */
  join(projectId: string, from: string, name?: string): Promise<void>;
  /** Runs queued jobs until none is left, waiting for in-flight simulator callbacks first. */
  settle(ms?: number): Promise<void>;
  eventsOf(projectId: string, type?: string): Promise<(typeof events.$inferSelect)[]>;
  messageRow(id: string): Promise<typeof messages.$inferSelect>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  redisUrl?: string | null;
  settings?: RuntimeOptions["settings"];
  /** SVC_PUBLIC_URL = this server: for links the provider calls back (a DATA_EXCHANGE flow's endpoint). */
  publicUrlIsServer?: boolean;
  statusDelaysMs?: { sent: number; delivered: number; read: number };
  /** false: the simulator as a production start serves it without SVC_SIMULATOR_PUBLIC (default open). */
  simulatorOpen?: boolean;
  /** The bearer token the server's GET /metrics takes (SVC_METRICS_TOKEN); unset → 404. */
  metricsToken?: string;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  let app: TestApp | null = null;
  const server = await startTestServer(() => app!.runtime, {
    ...(options.statusDelaysMs ? { statusDelaysMs: options.statusDelaysMs } : {}),
    ...(options.simulatorOpen !== undefined ? { simulatorOpen: options.simulatorOpen } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
  });
  app = await createTestApp({
    graphUrl: `${server.url}/api/simulator/graph`,
    ...(options.redisUrl !== undefined ? { redisUrl: options.redisUrl } : {}),
    settings: { ...options.settings, ...(options.publicUrlIsServer ? { publicUrl: server.url } : {}) },
  });
  const ready = app;
  const harness: Harness = {
    app: ready,
    server,
    async customer(input) {
      const response = await fetch(`${server.url}/api/simulator/customer/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ platform: "PLATFORM_A", sender_id: SANDBOX_PHONE_NUMBER_ID, ...input }),
      });
      const body = (await response.json()) as { message_id: string; delivered_status: number };
      if (!response.ok) throw new Error(`simulator refused: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
    async join(projectId, from, name) {
      const [project] = await ready.db.select({ joinCode: projects.joinCode }).from(projects).where(eq(projects.id, projectId));
      await harness.customer({ from, ...(name ? { name } : {}), type: "text", text: `join ${project!.joinCode}` });
      await harness.settle(20);
    },
    async settle(ms = 150) {
      // Bounded: a few rounds of "let callbacks land, run what they queued".
      for (let round = 0; round < 4; round++) {
        await ready.runtime.ports.queue.drain();
        await new Promise((r) => setTimeout(r, ms));
      }
      await ready.runtime.ports.queue.drain();
    },
    async eventsOf(projectId, type) {
      return ready.db
        .select()
        .from(events)
        .where(and(eq(events.projectId, projectId), type ? eq(events.type, type) : undefined))
        .orderBy(asc(events.id));
    },
    async messageRow(id) {
      const [row] = await ready.db.select().from(messages).where(eq(messages.id, id));
      return row!;
    },
    async close() {
      await server.close();
      await ready.close();
    },
  };
  return harness;
}
