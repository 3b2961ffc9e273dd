import { createCipheriv, createDecipheriv, createHash, createHmac, hash, hkdfSync, randomBytes, randomFillSync, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import { LRUCache } from "lru-cache";
import path from "node:path";
import { env } from "@/lib/config";

/**
 * Secrets at rest: API keys are stored only as SHA-256 hashes; reversible secrets (webhook signing
 * secrets, channel access tokens) are sealed with AES-256-GCM under SVC_ENCRYPTION_KEY. Without that
 * variable a random dev key is generated once into the data folder, so a fresh clone works offline.
 */
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function sha256Hex(value: string | Buffer): string {
  // The one-shot form (Node 20.12+): no Hash object per call, a third of the time for a key or a
  // request's fingerprint, both hashed on every POST /messages.
  return hash("sha256", value, "hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

let cachedKey: { variables: string; key: Buffer } | null = null;

function encryptionKey(): Buffer {
  // The two variables it depends on, read raw: env() reads every variable and resolves a path, and
  // this runs for every sealed value (each idempotent response among them).
  const variables = `${process.env.SVC_ENCRYPTION_KEY ?? ""}\n${process.env.SVC_DATA_DIR ?? ""}`;
  if (cachedKey?.variables === variables) return cachedKey.key;
  const { encryptionKey: configured, dataDir } = env();
  let material: string;
  if (configured) {
    material = configured;
  } else {
    const file = path.join(dataDir, "encryption.key");
    fs.mkdirSync(dataDir, { recursive: true });
    if (!fs.existsSync(file)) {
      try {
        fs.writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    material = fs.readFileSync(file, "utf8").trim();
  }
  const decoded = Buffer.from(material, "base64");
  // A 32-byte base64 value is used as is; any other string is stretched with SHA-256.
  const key = decoded.length === 32 ? decoded : createHash("sha256").update(material).digest();
  cachedKey = { variables, key };
  return key;
}

/**
 * A fresh random IV per seal, drawn from a pool of random bytes refilled 4 KiB at a time (as ids are,
 * lib/ids.ts): a system call per seal was a visible share of POST /messages, whose answer is sealed.
 */
const ivPool = Buffer.alloc(4092);
let ivPoolAt = ivPool.length;
function freshIv(): Buffer {
  if (ivPoolAt === ivPool.length) {
    randomFillSync(ivPool);
    ivPoolAt = 0;
  }
  // A copy: the pool's bytes are overwritten on the next refill.
  const iv = Buffer.from(ivPool.subarray(ivPoolAt, ivPoolAt + 12));
  ivPoolAt += 12;
  return iv;
}

/** Seals plain text as `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
export function seal(plain: string): string {
  const iv = freshIv();
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export function unseal(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Unrecognised sealed secret format");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** Unsealed values by sealed text, under the key they were unsealed with (see unsealCached). */
let unsealedCache: { key: Buffer; values: LRUCache<string, string> } | null = null;
const UNSEALED_CACHE_SIZE = 10_000;

/**
 * unseal, remembered for the hottest readers (a webhook's signing secret on every delivery, a hosted
 * function's secrets on every run). Keyed by the sealed text, which a new secret never repeats (a fresh
 * IV each seal), so a rotated or changed secret is a new entry; forgotten whole when the encryption key
 * changes, so a value sealed under another key still fails as unseal fails. The values stay in this
 * process's memory only. At most UNSEALED_CACHE_SIZE entries, the least recently used dropped first.
 */
export function unsealCached(sealed: string): string {
  const key = encryptionKey();
  if (unsealedCache?.key !== key) unsealedCache = { key, values: new LRUCache({ max: UNSEALED_CACHE_SIZE }) };
  const { values } = unsealedCache;
  let plain = values.get(sealed);
  if (plain === undefined) values.set(sealed, (plain = unseal(sealed)));
  return plain;
}

/**
 * A 32-byte key for one purpose, derived from the SVC_ENCRYPTION_KEY material with HKDF-SHA256
 * (RFC 5869; the purpose label is the `info`). Signing keys derived this way never equal the sealing
 * key or each other, and they rotate together with SVC_ENCRYPTION_KEY.
 */
export function derivedKey(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", encryptionKey(), Buffer.alloc(0), `svc:${purpose}`, 32));
}

/** HMAC-SHA256 of `data` under the key derived for `purpose` (see derivedKey). */
export function purposeHmac(purpose: string, data: string): Buffer {
  return createHmac("sha256", derivedKey(purpose)).update(data, "utf8").digest();
}
