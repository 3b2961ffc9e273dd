import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { commands } from "@/cli/commands";
import { generateWebhookSecret } from "@/lib/domain/projects/secrets";
import { SAMPLE_EVENT_TYPES } from "@/lib/domain/webhooks/samples";
import { serializeDelivery, signatureHeaders } from "@/lib/domain/webhooks/signing";

/** Runs a CLI command the way cli/index.ts does, with a database that must never be opened. */
async function run(group: string, name: string, flags: Record<string, string | boolean>) {
  const command = commands.find((c) => c.group === group && c.name === name)!;
  const lines: string[] = [];
  const db = () => {
    throw new Error(`'${group} ${name}' opened the database`);
  };
  await command.run(flags, { db, out: (line) => lines.push(line) });
  return lines;
}

interface Received {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** What standardwebhooks returned, or the error it threw. */
  verified: { ok: true; payload: unknown } | { ok: false; error: string };
}

const secret = generateWebhookSecret();
const received: Received[] = [];
let answer: { status: number; body: string } = { status: 200, body: "ok" };
let server: http.Server;
let url: string;

beforeAll(async () => {
  // A real receiver: raw body first, verified with the reference library before anything is parsed.
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let verified: Received["verified"];
      try {
        verified = { ok: true, payload: new Webhook(secret).verify(body, req.headers as Record<string, string>) };
      } catch (error) {
        verified = { ok: false, error: (error as Error).message };
      }
      received.push({ method: req.method!, headers: req.headers, body, verified });
      res.writeHead(verified.ok ? answer.status : 401, { "content-type": "text/plain" });
      res.end(verified.ok ? answer.body : "bad signature");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/svc`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

afterEach(() => {
  received.length = 0;
  answer = { status: 200, body: "ok" };
});

describe("webhooks trigger", () => {
  it("posts a signed message.received sample that standardwebhooks and an x-svc HMAC both verify", async () => {
    answer = { status: 200, body: `accepted:${"x".repeat(2000)}` };
    const lines = await run("webhooks", "trigger", { url, secret });
    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(hit!.method).toBe("POST");
    expect(hit!.verified).toMatchObject({ ok: true });
    expect(hit!.headers["content-type"]).toBe("application/json");
    expect(hit!.headers["user-agent"]).toBe("svc-webhooks/1.0");
    expect(hit!.headers["x-svc-event"]).toBe("message.received");
    expect(hit!.headers["x-svc-delivery"]).toMatch(/^evt_[0-9a-z]{26}$/);
    expect(hit!.headers["webhook-id"]).toBe(hit!.headers["x-svc-delivery"]);
    const hex = createHmac("sha256", secret).update(hit!.body).digest("hex");
    expect(hit!.headers["x-svc-signature"]).toBe(`sha256=${hex}`);
    const body = JSON.parse(hit!.body.toString("utf8"));
    expect(Object.keys(body)).toEqual(["event", "payload", "sentAt"]);
    expect(body.event).toBe("message.received");
    expect(body.payload).toMatchObject({ type: "text", message_id: expect.stringMatching(/^msg_/), contact_reference: expect.any(String) });
    expect(Math.abs(Date.parse(body.sentAt) - Date.now())).toBeLessThan(60_000);
    // Status code, then the first 500 bytes of the answer.
    expect(lines.some((l) => l.startsWith("HTTP 200"))).toBe(true);
    const excerpt = lines.find((l) => l.startsWith("accepted:"))!;
    expect(Buffer.byteLength(excerpt)).toBe(500);
  });

  it("sends every event type with --event", async () => {
    for (const event of SAMPLE_EVENT_TYPES) await run("webhooks", "trigger", { url, secret, event });
    expect(received.map((r) => r.headers["x-svc-event"])).toEqual([...SAMPLE_EVENT_TYPES]);
    expect(received.every((r) => r.verified.ok)).toBe(true);
    expect(received.map((r) => (r.verified as { payload: { event: string } }).payload.event)).toEqual([...SAMPLE_EVENT_TYPES]);
  });

  it("fails (non-zero exit) on a non-2xx answer, after printing it", async () => {
    answer = { status: 500, body: "receiver broke" };
    const command = commands.find((c) => c.group === "webhooks" && c.name === "trigger")!;
    const lines: string[] = [];
    await expect(command.run({ url, secret }, { db: () => Promise.reject(new Error("opened the database")), out: (l) => lines.push(l) })).rejects.toThrow(
      /answered 500/,
    );
    expect(lines).toContain("HTTP 500 Internal Server Error");
    expect(lines).toContain("receiver broke");
  });

  it("fails when the receiver rejects the signature (a different secret)", async () => {
    await expect(run("webhooks", "trigger", { url, secret: generateWebhookSecret() })).rejects.toThrow(/answered 401/);
    expect(received[0]!.verified).toMatchObject({ ok: false, error: "No matching signature found" });
  });

  it("rejects bad flags before sending anything", async () => {
    await expect(run("webhooks", "trigger", { url })).rejects.toThrow(/--secret is required/);
    await expect(run("webhooks", "trigger", { url, secret: "hunter2" })).rejects.toThrow(/whsec_/);
    await expect(run("webhooks", "trigger", { url: "not a url", secret })).rejects.toThrow(/not a URL/);
    await expect(run("webhooks", "trigger", { url: "ftp://127.0.0.1/x", secret })).rejects.toThrow(/http\(s\)/);
    await expect(run("webhooks", "trigger", { url, secret, event: "message.sent" })).rejects.toThrow(/--event must be one of: message.received/);
    expect(received).toHaveLength(0);
  });

  it("reports an unreachable receiver clearly", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(run("webhooks", "trigger", { url: `http://127.0.0.1:${port}/`, secret })).rejects.toThrow(/Could not reach/);
  });
});

describe("webhooks verify", () => {
  let dir: string;
  let file: string;
  const at = new Date();
  const eventId = "evt_01kvd1nwz04fjpg4r7m40c91zx";
  // Non-ASCII on purpose: the file's exact bytes are what is signed.
  const body = serializeDelivery("message.received", { text: "Olá, está pronto? 👋" }, at);
  const headers = signatureHeaders({ eventId, eventType: "message.received", body, secrets: [secret], timestamp: at });
  const standard = { id: eventId, timestamp: headers["webhook-timestamp"]!, "standard-signature": headers["webhook-signature"]! };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-webhooks-verify-"));
    file = path.join(dir, "body.json");
    fs.writeFileSync(file, body);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints valid for the x-svc-signature alone, and with the Standard Webhooks headers", async () => {
    expect((await run("webhooks", "verify", { secret, signature: headers["x-svc-signature"]!, "body-file": file }))[0]).toBe("valid");
    const both = await run("webhooks", "verify", { secret, signature: headers["x-svc-signature"]!, "body-file": file, ...standard });
    expect(both).toEqual(["valid", "# checked: x-svc-signature, webhook-signature and webhook-timestamp"]);
  });

  it("during a rotation: the new secret matches x-svc-signature, the old one x-svc-signature-previous, given either way", async () => {
    const fresh = generateWebhookSecret();
    const rotated = signatureHeaders({ eventId, eventType: "message.received", body, secrets: [fresh, secret], timestamp: at });
    const rotatedStandard = { id: eventId, timestamp: rotated["webhook-timestamp"]!, "standard-signature": rotated["webhook-signature"]! };
    const both = { signature: rotated["x-svc-signature"]!, "previous-signature": rotated["x-svc-signature-previous"]!, "body-file": file };
    // The new secret: x-svc-signature matches.
    expect(await run("webhooks", "verify", { secret: fresh, ...both, ...rotatedStandard })).toEqual([
      "valid",
      "# checked: x-svc-signature, x-svc-signature-previous, webhook-signature and webhook-timestamp",
    ]);
    // The old secret: x-svc-signature-previous matches, and the CLI says so.
    const old = await run("webhooks", "verify", { secret, ...both, ...rotatedStandard });
    expect(old[0]).toBe("valid");
    expect(old[2]).toMatch(/^# matched x-svc-signature-previous: this is the previous secret/);
    // --signature takes either header's value.
    expect((await run("webhooks", "verify", { secret, signature: rotated["x-svc-signature-previous"]!, "body-file": file }))[0]).toBe("valid");
    await expect(run("webhooks", "verify", { secret, signature: rotated["x-svc-signature"]!, "body-file": file })).rejects.toThrow(
      /^invalid: x-svc-signature does not match/,
    );
    await expect(run("webhooks", "verify", { secret: generateWebhookSecret(), ...both })).rejects.toThrow(
      /^invalid: neither x-svc-signature nor x-svc-signature-previous matches/,
    );
    // The old single-header list is not one header value.
    await expect(
      run("webhooks", "verify", { secret, signature: `${rotated["x-svc-signature"]}, ${rotated["x-svc-signature-previous"]}`, "body-file": file }),
    ).rejects.toThrow(/^invalid: --signature must be one header value/);
  });

  it("throws invalid for another secret, a changed file, a wrong standard signature or a malformed header", async () => {
    await expect(run("webhooks", "verify", { secret: generateWebhookSecret(), signature: headers["x-svc-signature"]!, "body-file": file })).rejects.toThrow(
      /^invalid: x-svc-signature does not match/,
    );
    const changed = path.join(dir, "changed.json");
    fs.writeFileSync(changed, `${body}\n`); // one trailing newline is enough
    await expect(run("webhooks", "verify", { secret, signature: headers["x-svc-signature"]!, "body-file": changed })).rejects.toThrow(/^invalid:/);
    await expect(
      run("webhooks", "verify", { secret, signature: headers["x-svc-signature"]!, "body-file": file, ...standard, id: "evt_01kvd1nwz0aaaaaaaaaaaaaaaaaa" }),
    ).rejects.toThrow(/^invalid: no webhook-signature entry matches/);
    await expect(run("webhooks", "verify", { secret, signature: headers["x-svc-signature"]!.slice(7), "body-file": file })).rejects.toThrow(
      /^invalid: --signature must be one header value/,
    );
  });

  it("throws invalid for a stale timestamp unless --tolerance widens it", async () => {
    const old = new Date(Date.now() - 3600_000);
    const stale = signatureHeaders({ eventId, eventType: "message.received", body, secrets: [secret], timestamp: old });
    const flags = {
      secret,
      signature: stale["x-svc-signature"]!,
      "body-file": file,
      id: eventId,
      timestamp: stale["webhook-timestamp"]!,
      "standard-signature": stale["webhook-signature"]!,
    };
    await expect(run("webhooks", "verify", flags)).rejects.toThrow(/^invalid: webhook-timestamp is \d+ s old \(tolerance 300 s\)/);
    expect((await run("webhooks", "verify", { ...flags, tolerance: "7200" }))[0]).toBe("valid");
  });

  it("rejects incomplete flags and unreadable files", async () => {
    await expect(run("webhooks", "verify", { secret, "body-file": file })).rejects.toThrow(/--signature is required/);
    await expect(run("webhooks", "verify", { secret, signature: headers["x-svc-signature"]!, "body-file": file, id: eventId })).rejects.toThrow(/go together/);
    await expect(run("webhooks", "verify", { secret, signature: headers["x-svc-signature"]!, "body-file": path.join(dir, "missing.json") })).rejects.toThrow(
      /ENOENT/,
    );
  });
});
