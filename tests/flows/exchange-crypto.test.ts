import { constants, privateDecrypt } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  decryptFlowRequest,
  decryptFlowResponse,
  encryptFlowRequest,
  encryptFlowResponse,
  FlowDecryptError,
  generateFlowKeyPair,
} from "@/lib/domain/flows/exchange/crypto";

// Key generation is the slow part: two pairs serve the whole file.
const ours = generateFlowKeyPair();
const other = generateFlowKeyPair();

function decryptError(run: () => unknown): FlowDecryptError {
  try {
    run();
  } catch (error) {
    if (FlowDecryptError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a FlowDecryptError");
}

describe("the Flow endpoint encryption", () => {
  it("round-trips: provider encrypts, we decrypt and answer, the provider reads the answer", () => {
    const payload = { version: "3.0", action: "INIT", flow_token: "svcft_abc", data: { name: "Zoë" } };
    const request = encryptFlowRequest(payload, ours.publicKeyPem);
    const decrypted = decryptFlowRequest(JSON.parse(JSON.stringify(request.body)), ours.privateKeyPem);
    expect(decrypted.payload).toEqual(payload);
    expect(decrypted.aesKey.equals(request.aesKey)).toBe(true);
    expect(decrypted.iv.equals(request.iv)).toBe(true);
    const answer = encryptFlowResponse({ screen: "DETAILS", data: { slots: ["9:00"] } }, decrypted.aesKey, decrypted.iv);
    expect(decryptFlowResponse(answer, request.aesKey, request.iv)).toEqual({ screen: "DETAILS", data: { slots: ["9:00"] } });
  });

  it("wraps a 16-byte AES key with RSA-OAEP SHA-256 and appends the 16-byte GCM tag", () => {
    const request = encryptFlowRequest({ action: "ping" }, ours.publicKeyPem);
    const unwrapped = privateDecrypt(
      { key: ours.privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(request.body.encrypted_aes_key, "base64"),
    );
    expect(unwrapped.length).toBe(16);
    expect(Buffer.from(request.body.encrypted_flow_data, "base64").length).toBe(JSON.stringify({ action: "ping" }).length + 16);
  });

  it("answers with the inverted IV: the answer does not decrypt under the request's own IV", () => {
    const request = encryptFlowRequest({ action: "ping" }, ours.publicKeyPem);
    const answer = encryptFlowResponse({ data: { status: "active" } }, request.aesKey, request.iv);
    const flipped = Buffer.from(request.iv.map((b) => b ^ 0xff));
    // decryptFlowResponse inverts the IV it is given: handed the inverted one, it reads with the request's own IV, which fails.
    expect(decryptError(() => decryptFlowResponse(answer, request.aesKey, flipped)).message).toMatch(/authenticate/);
  });

  it("refuses a request wrapped for another key with a FlowDecryptError", () => {
    const request = encryptFlowRequest({ action: "ping" }, other.publicKeyPem);
    expect(decryptError(() => decryptFlowRequest(request.body, ours.privateKeyPem)).message).toMatch(/public key/);
  });

  it("refuses tampered data, a missing field and a body that is not an object", () => {
    const request = encryptFlowRequest({ action: "ping" }, ours.publicKeyPem);
    const data = Buffer.from(request.body.encrypted_flow_data, "base64");
    data[0] = data[0]! ^ 1;
    const tampered = { ...request.body, encrypted_flow_data: data.toString("base64") };
    expect(decryptError(() => decryptFlowRequest(tampered, ours.privateKeyPem)).message).toMatch(/authenticate/);
    expect(decryptError(() => decryptFlowRequest({ ...request.body, initial_vector: undefined }, ours.privateKeyPem)).message).toMatch(/initial_vector/);
    expect(decryptError(() => decryptFlowRequest("nope", ours.privateKeyPem)).message).toMatch(/not a JSON object/);
  });

  it("refuses a payload that decrypts to JSON that is not an object", () => {
    const request = encryptFlowRequest([1, 2], ours.publicKeyPem);
    expect(decryptError(() => decryptFlowRequest(request.body, ours.privateKeyPem)).message).toMatch(/not a JSON object/);
  });
});
