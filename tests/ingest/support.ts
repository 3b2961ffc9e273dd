import { readdirSync, readFileSync } from "node:fs";
import type { InboundInteractive, InboundParty, NormalizedInboundMessage } from "@/lib/domain/ingest/types";

const DIR = new URL("../fixtures/provider/", import.meta.url);

/** A provider payload from tests/fixtures/provider/<name>.json. */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`${name}.json`, DIR), "utf8"));
}

export function fixtureNames(): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Follows a path of keys / indexes into a fixture (to compare `raw` / `call` with the item sent). */
export function at(value: unknown, ...path: (string | number)[]): Record<string, unknown> {
  let v = value;
  for (const key of path) v = (v as Record<string | number, unknown>)[key];
  return v as Record<string, unknown>;
}

/** A PLATFORM_A wamid as the fixtures build it: base64 of the provider's framing around phone + tail. */
export function wamid(phone: string, tail: string): string {
  const frame = Buffer.concat([
    Buffer.from([0x1c, 0x18, phone.length]),
    Buffer.from(phone),
    Buffer.from([0x15, 0x02, 0x00, 0x12, 0x18, 0x14]),
    Buffer.from(tail),
    Buffer.from([0x00]),
  ]);
  return `wamid.${frame.toString("base64")}`;
}

/** A normalized message with every common field explicit (nulls) unless given. */
export function message(m: Partial<NormalizedInboundMessage> & { id: string; received_at: string }): NormalizedInboundMessage {
  return { type: "text", text: null, media: null, location: null, interactive: null, replied_to: null, ...m };
}

export function interactive(i: Partial<InboundInteractive> & { type: string }): InboundInteractive {
  return { id: null, title: null, description: null, payload: null, response: null, flow_token: null, ...i };
}

export function party(p: Partial<InboundParty>): InboundParty {
  return { address: null, user_id: null, parent_user_id: null, username: null, name: null, ...p };
}
