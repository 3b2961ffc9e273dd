import { createPublicKey } from "node:crypto";
import type { SimulatorContext } from "@/lib/simulator/context";
import { readParams } from "@/lib/simulator/flows";
import { bearerToken, invalidParameter, invalidToken, json } from "@/lib/simulator/http";
import type { SimulatorState } from "@/lib/simulator/state";

/**
 * The number's business public key for endpoint-powered flows:
 *   POST /graph/{phone_number_id}/whatsapp_business_encryption {business_public_key: PEM} → {success: true}
 *   GET  /graph/{phone_number_id}/whatsapp_business_encryption
 *        → {data: [{business_public_key, business_public_key_signature_status: "VALID"}]} ([] when none)
 * The provider takes a 2048-bit RSA public key in PEM, form-encoded or JSON; anything else is refused
 * as an invalid parameter (100).
 */
const MAX_KEYS = 2_000;
const RSA_BITS = 2048;

/** The problem with a candidate key, or null when it is a 2048-bit RSA public key in PEM. */
function publicKeyProblem(pem: unknown): string | null {
  if (typeof pem !== "string" || pem.trim() === "") return "Param business_public_key is required.";
  if (!/-----BEGIN (?:RSA )?PUBLIC KEY-----/.test(pem)) return "Param business_public_key must be a PEM encoded public key.";
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== "rsa") return "Param business_public_key must be an RSA public key.";
    if (key.asymmetricKeyDetails?.modulusLength !== RSA_BITS) return `Param business_public_key must be a ${RSA_BITS}-bit RSA public key.`;
    return null;
  } catch {
    return "Param business_public_key is not a valid public key.";
  }
}

function remember(state: SimulatorState, phoneNumberId: string, pem: string): void {
  state.flowPublicKeys.delete(phoneNumberId);
  state.flowPublicKeys.set(phoneNumberId, pem);
  for (const id of state.flowPublicKeys.keys()) {
    if (state.flowPublicKeys.size <= MAX_KEYS) break;
    state.flowPublicKeys.delete(id);
  }
}

/** POST /graph/{phone_number_id}/whatsapp_business_encryption. */
export async function registerPublicKey(ctx: SimulatorContext, request: Request, phoneNumberId: string): Promise<Response> {
  if (!bearerToken(request)) return invalidToken();
  const read = await readParams(request);
  if (!read.ok) return invalidParameter("The request body must be valid JSON or form-encoded.", true);
  const pem = read.value.business_public_key;
  const problem = publicKeyProblem(pem);
  if (problem) return invalidParameter(problem, true);
  remember(ctx.state, phoneNumberId, (pem as string).trim());
  return json(200, { success: true });
}

/** GET /graph/{phone_number_id}/whatsapp_business_encryption. */
export function readPublicKey(ctx: SimulatorContext, request: Request, phoneNumberId: string): Response {
  if (!bearerToken(request)) return invalidToken();
  const pem = ctx.state.flowPublicKeys.get(phoneNumberId);
  return json(200, { data: pem ? [{ business_public_key: pem, business_public_key_signature_status: "VALID" }] : [] });
}
