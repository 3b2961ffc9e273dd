import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitEvent } from "@/lib/domain/events";
import { createTestApp, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";

let app: TestApp;
let receiver: Receiver;
let worker: ChildProcess | null = null;
let output = "";

beforeAll(async () => {
  app = await createTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  worker?.kill("SIGTERM");
  await receiver?.close();
  await app?.close();
});

describe("npm run worker", () => {
  it("a separate worker process on the same Postgres delivers the events web processes store", async ({ skip }) => {
    if (app.kind !== "postgres") skip("PGlite allows one process per database");
    const seeded = await app.seed();
    await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: `${receiver.url}/w` } });

    worker = spawn(process.execPath, ["--import", "tsx", "cli/worker.ts"], {
      env: { ...process.env, DATABASE_URL: app.databaseUrl!, REDIS_URL: "", SVC_WORKER: "on", NODE_ENV: "test" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (chunk) => (output += String(chunk)));
    worker.stderr!.on("data", (chunk) => (output += String(chunk)));
    const deadline = Date.now() + 30_000;
    while (!output.includes("running jobs on postgres") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain("running jobs on postgres");

    // This process only stores the event and its delivery job; the worker process sends it.
    const eventId = await app.db.transaction((tx) =>
      emitEvent(
        { ...app.systemCtx(), db: tx },
        { project: { id: seeded.projectId }, type: "message.status", payload: { message_id: "msg_w", status: "read" }, at: app.clock.now() },
      ),
    );
    const [got] = await receiver.waitFor(1, 15_000);
    expect(got!.headers["x-svc-delivery"]).toBe(eventId);
    expect(JSON.parse(got!.raw).payload).toMatchObject({ message_id: "msg_w" });
  }, 60_000);
});
