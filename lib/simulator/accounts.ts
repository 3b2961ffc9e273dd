import { createHash } from "node:crypto";
import type { SimulatorContext } from "@/lib/simulator/context";
import { bearerToken, invalidToken, json } from "@/lib/simulator/http";
import type { SimulatorState } from "@/lib/simulator/state";

/**
 * `GET /graph/{id}?fields=...` for a phone number or a business account: the fields our readiness
 * reads (and a few neighbours the provider returns with them). Every number and business account
 * the simulator is asked about is in good standing: the number CONNECTED with an approved name,
 * the account APPROVED, its business verified, with a funding source. So a number connected to the
 * simulator can submit templates; a test that needs a number that cannot sets the channel's statuses
 * in the database. A number's `throughput` is {level: HIGH} when the control route set it to 1,000 a
 * second or more, else {level: STANDARD} (throughput.ts).
 *
 * Which node an id is comes from the fields asked: all of them phone number fields, or all of them
 * business account fields. Anything else (a flow's or template's fields, a media id, no fields) is
 * left to the other routes, as before.
 */
export const ACCOUNT_ROUTES = [
  "GET /graph/{phone_number_id}?fields=status,name_status,throughput,...",
  "GET /graph/{waba_id}?fields=account_review_status,...",
];

type Field = (id: string, state: SimulatorState) => unknown;

const PHONE_NUMBER: Record<string, Field> = {
  status: () => "CONNECTED",
  name_status: () => "APPROVED",
  code_verification_status: () => "VERIFIED",
  quality_rating: () => "GREEN",
  platform_type: () => "CLOUD_API",
  messaging_limit_tier: () => "TIER_1K",
  verified_name: () => "Simulated Business",
  display_phone_number: (id) => `+1 555 ${digitsFrom(`phone:${id}`, 7)}`,
  throughput: (id, state) => ({ level: state.throughputStats(id).level }),
};

const BUSINESS_ACCOUNT: Record<string, Field> = {
  name: () => "Simulated Business",
  account_review_status: () => "APPROVED",
  business_verification_status: () => "verified",
  primary_funding_id: (id) => digitsFrom(`funding:${id}`, 15),
  currency: () => "USD",
  timezone_id: () => "1",
};

function digitsFrom(seed: string, length: number): string {
  return BigInt(`0x${createHash("sha256").update(seed).digest("hex")}`)
    .toString()
    .slice(0, length);
}

/** The node whose fields are exactly the ones asked (plus id), or null. */
function nodeFor(fields: string[]): Record<string, Field> | null {
  const asked = fields.filter((field) => field !== "id");
  if (asked.length === 0) return null;
  for (const node of [PHONE_NUMBER, BUSINESS_ACCOUNT]) if (asked.every((field) => Object.hasOwn(node, field))) return node;
  return null;
}

/** The answer for a phone number or business account read, or null when the request is not one. */
export function routeAccounts(ctx: SimulatorContext, request: Request, method: string, segments: string[]): Response | null {
  const [head, id] = segments;
  if (method !== "GET" || head !== "graph" || !id || segments.length !== 2 || ctx.state.getMedia(id)) return null;
  const fields = (new URL(request.url).searchParams.get("fields") ?? "")
    .split(",")
    .map((field) => field.trim())
    .filter(Boolean);
  const node = nodeFor(fields);
  if (!node) return null;
  if (!bearerToken(request)) return invalidToken();
  const answer: Record<string, unknown> = { id };
  for (const field of fields) if (field !== "id") answer[field] = node[field]!(id, ctx.state);
  return json(200, answer);
}
