import { constants, createCipheriv, publicEncrypt, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/providers/[platform]/flows/[flowId]/endpoint/route";
import { encryptFlowRequest, generateFlowKeyPair } from "@/lib/domain/flows/exchange/crypto";
import { appSecretFor, signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { createTestApp, type TestApp } from "../support/app";
import { seedExchange, type ExchangeSeed } from "./exchange-support";

/**
 * Hostile shapes against the real route of the DATA_EXCHANGE endpoint (issue 31, item 4): each gets
 * the contract's answer (docs/spec/decisions.md "Flows": 421 cannot decrypt, 427 unknown token, 432 bad
 * signature; 404 unknown flow), never a 500. The route gets its flow id percent-decoded, as Next hands it.
 */
let app: TestApp;
let seed: ExchangeSeed;
let otherFlowToken: string;
const secret = () => appSecretFor("PLATFORM_A") ?? simulatorAppSecret("PLATFORM_A");
const OAEP = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" } as const;

beforeAll(async () => {
  app = await createTestApp();
  app.clock.set(Date.now());
  seed = await seedExchange(app, null);
  otherFlowToken = (await seedExchange(app, null)).flowToken;
});
afterAll(async () => {
  await app?.close();
});

interface Shape {
  name: string;
  status: number;
  /** The raw body; default: `payload` encrypted for the seeded number. */
  raw?: () => string;
  payload?: () => Record<string, unknown>;
  flowId?: () => string;
  signature?: (raw: string) => string | null;
}

const b64 = (bytes: Buffer) => bytes.toString("base64");
const json = (value: unknown) => JSON.stringify(value);
const valid = (payload: unknown) => encryptFlowRequest(payload, seed.publicKeyPem).body;
const init = (flowToken: unknown) => ({ version: "3.0", action: "INIT", flow_token: flowToken });

/** A body encrypted by hand: the AES key, IV and plaintext as given. */
function handmade(options: { aesKey?: Buffer; iv?: Buffer; plain?: string; publicKeyPem?: string }) {
  const aesKey = options.aesKey ?? randomBytes(16);
  const iv = options.iv ?? randomBytes(16);
  const cipher = createCipheriv(aesKey.length === 32 ? "aes-256-gcm" : "aes-128-gcm", aesKey, iv);
  const sealed = Buffer.concat([cipher.update(options.plain ?? json({ action: "ping" }), "utf8"), cipher.final(), cipher.getAuthTag()]);
  return {
    encrypted_flow_data: b64(sealed),
    encrypted_aes_key: b64(publicEncrypt({ key: options.publicKeyPem ?? seed.publicKeyPem, ...OAEP }, aesKey)),
    initial_vector: b64(iv),
  };
}

const SHAPES: Shape[] = [
  // 432: the signature is checked before anything else is read.
  { name: "no signature", status: 432, payload: () => ({ action: "ping" }), signature: () => null },
  { name: "a signature by another secret", status: 432, payload: () => ({ action: "ping" }), signature: (raw) => signPayload("not-the-secret", raw) },
  { name: "an empty sha256=", status: 432, payload: () => ({ action: "ping" }), signature: () => "sha256=" },
  { name: "a non-hex signature", status: 432, payload: () => ({ action: "ping" }), signature: () => `sha256=${"zz".repeat(32)}` },
  { name: "a 64 KiB signature", status: 432, payload: () => ({ action: "ping" }), signature: () => `sha256=${"a".repeat(65536)}` },
  { name: "another body's signature", status: 432, payload: () => ({ action: "ping" }), signature: () => signPayload(secret(), "{}") },
  // 404: flow ids that cannot be ours.
  { name: "a NUL as the flow id (%00)", status: 404, payload: () => ({ action: "ping" }), flowId: () => "\u0000" },
  { name: "a NUL inside a flow id", status: 404, payload: () => ({ action: "ping" }), flowId: () => `${seed.flowId}\u0000` },
  { name: "a lone surrogate as the flow id", status: 404, payload: () => ({ action: "ping" }), flowId: () => "flow_\ud800" },
  { name: "a 10 KiB flow id", status: 404, payload: () => ({ action: "ping" }), flowId: () => `flow_${"a".repeat(10240)}` },
  { name: "a path-like flow id", status: 404, payload: () => ({ action: "ping" }), flowId: () => "../../etc/passwd" },
  { name: "a quoted flow id", status: 404, payload: () => ({ action: "ping" }), flowId: () => "flow_' OR '1'='1" },
  { name: "an unknown well-formed flow id", status: 404, payload: () => ({ action: "ping" }), flowId: () => "flow_01jzzzzzzzzzzzzzzzzzzzzzzz" },
  // 421: bodies that do not decrypt.
  { name: "a body that is not JSON", status: 421, raw: () => "not json" },
  { name: "an empty body", status: 421, raw: () => "" },
  { name: "a JSON array", status: 421, raw: () => json([valid({ action: "ping" })]) },
  { name: "a JSON string", status: 421, raw: () => json("ping") },
  { name: "JSON null", status: 421, raw: () => "null" },
  { name: "an empty object", status: 421, raw: () => "{}" },
  { name: "no encrypted_aes_key", status: 421, raw: () => json({ ...valid({ action: "ping" }), encrypted_aes_key: undefined }) },
  { name: "no initial_vector", status: 421, raw: () => json({ ...valid({ action: "ping" }), initial_vector: undefined }) },
  { name: "no encrypted_flow_data", status: 421, raw: () => json({ ...valid({ action: "ping" }), encrypted_flow_data: undefined }) },
  { name: "fields that are numbers", status: 421, raw: () => json({ encrypted_flow_data: 1, encrypted_aes_key: 2, initial_vector: 3 }) },
  { name: "fields that are objects", status: 421, raw: () => json({ encrypted_flow_data: {}, encrypted_aes_key: [], initial_vector: { a: 1 } }) },
  { name: "an AES key that is not base64", status: 421, raw: () => json({ ...valid({ action: "ping" }), encrypted_aes_key: "!!!!****" }) },
  { name: "an AES key wrapped for another key pair", status: 421, raw: () => json(handmade({ publicKeyPem: strangerPublicKey() })) },
  { name: "a 32-byte AES key", status: 421, raw: () => json(handmade({ aesKey: randomBytes(32) })) },
  { name: "an IV that decodes to 0 bytes", status: 421, raw: () => json({ ...valid({ action: "ping" }), initial_vector: "====" }) },
  { name: "a 1 MiB IV", status: 421, raw: () => json({ ...valid({ action: "ping" }), initial_vector: b64(randomBytes(1024 * 1024)) }) },
  { name: "a 1-byte IV, even one the data was encrypted with", status: 421, raw: () => json(handmade({ iv: randomBytes(1) })) },
  { name: "a 12-byte IV", status: 421, raw: () => json(handmade({ iv: randomBytes(12) })) },
  { name: "a NUL inside the IV text", status: 421, raw: () => json({ ...valid({ action: "ping" }), initial_vector: "\u0000\u0000" }) },
  { name: "data shorter than its tag", status: 421, raw: () => json({ ...valid({ action: "ping" }), encrypted_flow_data: b64(randomBytes(5)) }) },
  { name: "tampered data", status: 421, raw: () => json(tampered(valid({ action: "ping" }))) },
  { name: "another request's IV", status: 421, raw: () => json({ ...valid({ action: "ping" }), initial_vector: valid({ action: "ping" }).initial_vector }) },
  { name: "a plaintext that is not JSON", status: 421, raw: () => json(handmade({ plain: "ping" })) },
  { name: "an empty plaintext", status: 421, raw: () => json(handmade({ plain: "" })) },
  { name: "a plaintext JSON array", status: 421, raw: () => json(handmade({ plain: "[1,2]" })) },
  { name: "a plaintext JSON null", status: 421, raw: () => json(handmade({ plain: "null" })) },
  { name: "2 MiB of random data", status: 421, raw: () => json({ ...valid({ action: "ping" }), encrypted_flow_data: b64(randomBytes(2 * 1024 * 1024)) }) },
  // 427: decrypted, but no flow_token of this flow.
  { name: "no flow_token", status: 427, payload: () => ({ version: "3.0", action: "INIT" }) },
  { name: "a numeric flow_token", status: 427, payload: () => init(42) },
  { name: "an object flow_token", status: 427, payload: () => init({ $ne: null }) },
  { name: "an empty flow_token", status: 427, payload: () => init("") },
  { name: "a NUL in the flow_token", status: 427, payload: () => init(`${seed.flowToken}\u0000`) },
  { name: "a flow_token that is a NUL", status: 427, payload: () => init("\u0000") },
  { name: "a lone surrogate in the flow_token", status: 427, payload: () => init("svcft_\ud800") },
  { name: "a 100 KiB flow_token", status: 427, payload: () => init(`svcft_${"a".repeat(102400)}`) },
  { name: "a quoted flow_token", status: 427, payload: () => init("svcft_' OR '1'='1") },
  { name: "an unknown flow_token", status: 427, payload: () => init("svcft_unknownunknownunknownunknown") },
  { name: "another flow's flow_token", status: 427, payload: () => init(otherFlowToken) },
  // Odd but well-formed: answered as the protocol says.
  { name: "ping with a NUL in its data", status: 200, payload: () => ({ action: "ping", data: { "\u0000": "\u0000" } }) },
  { name: "an unknown action with a valid flow_token", status: 400, payload: () => ({ action: "\u0000", flow_token: seed.flowToken }) },
];

let stranger: string | null = null;
function strangerPublicKey(): string {
  stranger ??= generateFlowKeyPair().publicKeyPem;
  return stranger;
}

function tampered(body: { encrypted_flow_data: string; encrypted_aes_key: string; initial_vector: string }) {
  const data = Buffer.from(body.encrypted_flow_data, "base64");
  data[0] = data[0]! ^ 0xff;
  return { ...body, encrypted_flow_data: b64(data) };
}

async function post(shape: Shape) {
  const raw = shape.raw ? shape.raw() : json(valid(shape.payload!()));
  const signature = shape.signature ? shape.signature(raw) : signPayload(secret(), raw);
  const headers = new Headers({ "content-type": "application/json" });
  if (signature !== null) headers.set("x-hub-signature-256", signature);
  const request = new Request("http://localhost/api/providers/platform-a/flows/x/endpoint", { method: "POST", headers, body: raw });
  const flowId = shape.flowId ? shape.flowId() : seed.flowId;
  return POST(request, { params: Promise.resolve({ platform: "platform-a", flowId }) });
}

describe("POST /api/providers/platform-a/flows/{flow_id}/endpoint with malformed input", () => {
  it("has at least 30 shapes", () => {
    expect(SHAPES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(SHAPES.map((shape) => [shape.name, shape] as const))("answers %s with the contract's status", async (_name, shape) => {
    const response = await post(shape);
    const text = await response.text();
    expect(response.status, text).toBe(shape.status);
    expect(text).not.toMatch(/insert|select|where|\$1/i);
  });
});
