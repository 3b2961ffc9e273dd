import { constants, createCipheriv, createDecipheriv, generateKeyPair, generateKeyPairSync, privateDecrypt, publicEncrypt, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { errorKind } from "@/lib/error-kind";
import { isRecord } from "@/lib/json";

/**
 * The encryption of the provider's Flow endpoint calls (docs/spec/decisions.md "Flows", DATA_EXCHANGE):
 * the provider wraps a fresh AES-128 key with the number's RSA public key (OAEP, SHA-256) and encrypts
 * the JSON with AES-128-GCM (the 16-byte tag appended); the answer is encrypted with the same key and
 * the request's IV with every bit inverted, so a request and its answer never share a nonce.
 * Both sides live here: ours (decrypt the request, encrypt the answer) and the provider's, which the
 * simulator and the tests play.
 */
const TAG_BYTES = 16;
const AES_KEY_BYTES = 16;
// The provider's IV is 16 random bytes; anything else (none, 1 byte, 1 MiB) is not its request, and
// Node's cipher throws on the extremes instead of failing to authenticate.
const IV_BYTES = 16;
const OAEP = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" } as const;

/** The request could not be decrypted: the provider answers it by refreshing our public key (HTTP 421). */
export class FlowDecryptError extends errorKind("FlowDecryptError") {
  constructor(message: string) {
    super(message);
    this.name = "FlowDecryptError";
  }
}

/** The encrypted request body, exactly as the provider posts it (all three values base64). */
export interface EncryptedFlowRequest {
  encrypted_flow_data: string;
  encrypted_aes_key: string;
  initial_vector: string;
}

export interface DecryptedFlowRequest {
  payload: Record<string, unknown>;
  aesKey: Buffer;
  iv: Buffer;
}

/** A channel's RSA-2048 key pair (PEM: SPKI public, PKCS#8 private). Generated once per channel, so the blocking call is acceptable. */
export function generateFlowKeyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

const generateKeyPairAsync = promisify(generateKeyPair);

/** The same pair, generated on libuv's thread pool: a job in the web process (dev) must not stall requests for the ~0.2–0.9 s it takes. */
export async function generateFlowKeyPairOffThread(): Promise<{ publicKeyPem: string; privateKeyPem: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

function base64Field(body: Record<string, unknown>, name: keyof EncryptedFlowRequest): Buffer {
  const value = body[name];
  if (typeof value !== "string" || value === "") throw new FlowDecryptError(`${name} is missing or not a string`);
  return Buffer.from(value, "base64");
}

function invertedIv(iv: Buffer): Buffer {
  return Buffer.from(iv.map((byte) => ~byte & 0xff));
}

function gcmEncrypt(plain: string, aesKey: Buffer, iv: Buffer): string {
  const cipher = createCipheriv("aes-128-gcm", aesKey, iv);
  return Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64");
}

function gcmDecrypt(sealed: Buffer, aesKey: Buffer, iv: Buffer): string {
  if (iv.length !== IV_BYTES) throw new FlowDecryptError(`initial_vector is ${iv.length} bytes, not ${IV_BYTES}`);
  if (sealed.length < TAG_BYTES) throw new FlowDecryptError("the encrypted data is shorter than its authentication tag");
  try {
    const decipher = createDecipheriv("aes-128-gcm", aesKey, iv);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    // Whatever the cipher refuses (key, IV, tag), the provider's answer to a 421 is the same: refresh our key.
    throw new FlowDecryptError("the encrypted data does not authenticate under this key and IV");
  }
}

function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FlowDecryptError("the decrypted data is not JSON");
  }
  if (!isRecord(value)) throw new FlowDecryptError("the decrypted data is not a JSON object");
  return value;
}

/** Our side: unwraps the AES key with the channel's private key and decrypts the request. Throws FlowDecryptError. */
export function decryptFlowRequest(body: unknown, privateKeyPem: string): DecryptedFlowRequest {
  if (!isRecord(body)) throw new FlowDecryptError("the request body is not a JSON object");
  const wrappedKey = base64Field(body, "encrypted_aes_key");
  const iv = base64Field(body, "initial_vector");
  const data = base64Field(body, "encrypted_flow_data");
  let aesKey: Buffer;
  try {
    aesKey = privateDecrypt({ key: privateKeyPem, ...OAEP }, wrappedKey);
  } catch {
    throw new FlowDecryptError("encrypted_aes_key was not wrapped with this channel's public key");
  }
  if (aesKey.length !== AES_KEY_BYTES) throw new FlowDecryptError(`the AES key is ${aesKey.length} bytes, not ${AES_KEY_BYTES}`);
  return { payload: parseObject(gcmDecrypt(data, aesKey, iv)), aesKey, iv };
}

/** Our side: the answer as base64 text, encrypted with the request's key and inverted IV. */
export function encryptFlowResponse(payload: unknown, aesKey: Buffer, iv: Buffer): string {
  return gcmEncrypt(JSON.stringify(payload), aesKey, invertedIv(iv));
}

/** The provider's side (simulator, tests): a fresh AES key and IV, the key wrapped with the number's public key. */
export function encryptFlowRequest(payload: unknown, publicKeyPem: string): { body: EncryptedFlowRequest; aesKey: Buffer; iv: Buffer } {
  const aesKey = randomBytes(AES_KEY_BYTES);
  const iv = randomBytes(16);
  const body: EncryptedFlowRequest = {
    encrypted_flow_data: gcmEncrypt(JSON.stringify(payload), aesKey, iv),
    encrypted_aes_key: publicEncrypt({ key: publicKeyPem, ...OAEP }, aesKey).toString("base64"),
    initial_vector: iv.toString("base64"),
  };
  return { body, aesKey, iv };
}

/** The provider's side: reads our base64 answer. Throws FlowDecryptError when it does not decrypt to a JSON object. */
export function decryptFlowResponse(text: string, aesKey: Buffer, iv: Buffer): Record<string, unknown> {
  return parseObject(gcmDecrypt(Buffer.from(text.trim(), "base64"), aesKey, invertedIv(iv)));
}
