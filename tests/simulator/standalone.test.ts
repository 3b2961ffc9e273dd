import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorAppSecret, verifySignature } from "@/lib/ports/provider/app-secret";
import { createProviderPort } from "@/lib/ports/provider";
import { ProviderError } from "@/lib/ports/provider/types";
import { startReceiver, type Receiver } from "../provider/http-helpers";

/**
 * `npm run simulator` as a process of its own: the Graph API at `<url>/graph` (and under
 * /api/simulator, as the app serves it), status callbacks to SVC_PUBLIC_URL signed with the
 * documented simulator secret, the throughput controls, a clean stop on SIGTERM, and its memory kept
 * across a restart under $SVC_DATA_DIR/simulator-standalone.
 */
let receiver: Receiver;
let child: ChildProcessWithoutNullStreams;
let url = "";
let output = "";
let dataDir = "";

async function startSimulator(): Promise<void> {
  output = "";
  child = spawn(process.execPath, ["--import", "tsx", "cli/simulator.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, SVC_SIMULATOR_PORT: "0", SVC_PUBLIC_URL: receiver.url, PLATFORM_A_APP_SECRET: "", SVC_DATA_DIR: dataDir },
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const deadline = Date.now() + 30_000;
  // The banner's last line (how to point the app at it) can come in a later chunk than the first.
  while (!/listening on (\S+)/.test(output) || !/point the app at it: .*\n/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the simulator did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  url = /listening on (\S+),/.exec(output)![1]!;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-standalone-sim-"));
  receiver = await startReceiver();
  await startSimulator();
}, 40_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  await receiver?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const A = { platform: "PLATFORM_A" as const, senderId: "109000000000001", accessToken: "EAAG-standalone" };

/** The customer writes first: free-form text is only allowed within their 24 h window. */
async function customerWrites(senderId: string, from: string): Promise<void> {
  const res = await fetch(`${url}/customer/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ platform: "PLATFORM_A", sender_id: senderId, from, type: "text", text: "hi" }),
  });
  expect(res.status).toBe(200);
}

describe("npm run simulator", () => {
  it("prints how to point the app at it, secrets being the documented development ones", () => {
    expect(output).toContain(`PROVIDER_GRAPH_URL=${url}/graph`);
    expect(output).toContain(`PLATFORM_A_APP_SECRET=${simulatorAppSecret("PLATFORM_A")}`);
  });

  it("accepts a send and posts its statuses, signed, to SVC_PUBLIC_URL's provider webhook", async () => {
    await customerWrites(A.senderId, "15550001234");
    const provider = createProviderPort({ graphUrl: `${url}/graph` });
    const { platformMessageId } = await provider.send(A, "15550001234", { content: { kind: "text", text: "hello" } });
    expect(platformMessageId).toMatch(/^wamid\./);
    const callbacks = await receiver.waitFor(
      (r) => r.path === "/api/providers/platform-a/webhook" && r.raw.toString("utf8").includes(platformMessageId),
      3,
      5000,
    );
    const statuses = callbacks.flatMap((r) => (r.json as any).entry[0].changes[0].value.statuses.map((s: { status: string }) => s.status));
    expect(statuses).toEqual(expect.arrayContaining(["sent", "delivered", "read"]));
    for (const r of callbacks) expect(verifySignature(simulatorAppSecret("PLATFORM_A"), r.raw, String(r.headers["x-hub-signature-256"]))).toBe(true);
  });

  it("serves the same routes under /api/simulator, the throughput control included", async () => {
    const set = await fetch(`${url}/api/simulator/control/numbers/throughput`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone_number_id: "109000000000002", messages_per_second: 1 }),
    });
    expect(set.status).toBe(200);
    const provider = createProviderPort({ graphUrl: `${url}/api/simulator/graph` });
    const channel = { ...A, senderId: "109000000000002" };
    await customerWrites(channel.senderId, "15550001235");
    await customerWrites(channel.senderId, "15550001236");
    await provider.send(channel, "15550001235", { content: { kind: "text", text: "one" } });
    const refused = await provider.send(channel, "15550001236", { content: { kind: "text", text: "two" } }).catch((error: unknown) => error);
    expect(ProviderError.is(refused) && refused.failure.code).toBe(130429);
    const stats = await (await fetch(`${url}/control/numbers/throughput?phone_number_id=109000000000002`)).json();
    expect(stats).toMatchObject({ accepted: 1, refused: 1 });
  });

  it("stops on SIGTERM", async () => {
    await customerWrites(A.senderId, "15550001299");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });

  it("started again on the same data, it still has the window and the inbox (its own folder)", async () => {
    expect(fs.existsSync(path.join(dataDir, "simulator-standalone", "state.json"))).toBe(true);
    await startSimulator();
    const provider = createProviderPort({ graphUrl: `${url}/graph` });
    // The customer wrote before the stop: a free-form reply is inside the window, not 131047.
    const { platformMessageId } = await provider.send(A, "15550001299", { content: { kind: "text", text: "after the restart" } });
    const inbox = await (await fetch(`${url}/customer/inbox?sender_id=${A.senderId}&address=15550001234`)).json();
    expect(inbox.data.map((m: { text: string }) => m.text)).toEqual(["hello"]);
    expect(platformMessageId).toMatch(/^wamid\./);
  }, 40_000);
});
