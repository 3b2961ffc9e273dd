import { randomBytes as cryptoRandomBytes, randomFillSync, randomInt } from "node:crypto";

/**
 * Provider-shaped ids. They carry no meaning here; they only have to look like the real ones so the
 * service never depends on a simulator-only format:
 *  - PLATFORM_A message ids: `wamid.` + base64 of a small binary record holding the customer's number
 *    (real ones start `wamid.HBg...` and end in `AA=`-style padding).
 *  - PLATFORM_C mids: `m_` + base64url.
 *  - PLATFORM_B mids: base64url of an `ig_message_item:...` record (real ones start `aWdf`).
 *  - media ids: 15-16 digit numbers; fbtrace_id: 23 base64url characters.
 */

/**
 * Random bytes drawn from a buffer filled 4 KiB at a time: a call to crypto.randomBytes per id was
 * a twentieth of the simulator's CPU at a thousand sends a second. The ids only have to be unlikely to
 * repeat, as before; each call's bytes are copied out before the buffer is filled again.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomBytes(size: number): Buffer {
  if (size > pool.length) return cryptoRandomBytes(size);
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + size));
  poolOffset += size;
  return bytes;
}

export function wamid(address: string): string {
  const digits = Buffer.from(address.replace(/\D/g, "").slice(0, 20));
  const serial = Buffer.from(randomBytes(10).toString("hex").toUpperCase());
  return `wamid.${Buffer.concat([
    Buffer.from([0x1c, 0x18, digits.length]),
    digits,
    Buffer.from([0x15, 0x02, 0x00, 0x12, 0x18, serial.length]),
    serial,
    Buffer.from([0x00]),
  ]).toString("base64")}`;
}

export function messengerMid(): string {
  return `m_${randomBytes(45).toString("base64url")}`;
}

export function instagramMid(accountId: string): string {
  const thread = `${randomInt(1e8, 1e9)}${randomInt(1e8, 1e9)}`;
  return Buffer.from(`ig_message_item:1:IGMessageThread:${accountId}:${thread}:${randomBytes(8).toString("hex")}`).toString("base64url");
}

export function mediaId(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 1e8)).padStart(8, "0")}${String(randomInt(0, 1e7)).padStart(7, "0")}`;
}

export function fbtraceId(): string {
  return randomBytes(17).toString("base64url").slice(0, 23);
}

export function conversationId(): string {
  return randomBytes(16).toString("hex");
}
