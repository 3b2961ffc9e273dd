/**
 * A customer's message as the provider delivers it to us (shared by the benchmark and the fault
 * suite): the PLATFORM_A webhook envelope the simulator would build for the shared sandbox number,
 * signed with the simulator's app secret (X-Hub-Signature-256), as a request to our provider endpoint.
 * The raw body is fixed once built, so a refused delivery can be sent again byte for byte, as the
 * provider does.
 */
import { buildPlatformAInbound } from "@/lib/simulator/customer-a";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { HttpRequest } from "./load";

/** The shared sandbox channel and its PLATFORM_A phone number id. */
export const SANDBOX_CHANNEL = "ch_sandbox";
export const SANDBOX_SENDER = "sandbox-phone-number-id";

/** The sandbox number as GET /api/v1/channels/ch_sandbox shows it. */
export interface SandboxNumber {
  businessAccountId: string;
  /** Digits only (no +). */
  displayPhoneNumber: string;
}

export function sandboxNumber(phoneNumber: string | null): SandboxNumber {
  return { businessAccountId: "sandbox-business-account", displayPhoneNumber: (phoneNumber ?? "").replace(/^\+/, "") };
}

/** A signed PLATFORM_A customer text to `${base}/api/providers/platform-a/webhook`, and the message's provider id. */
export function providerTextDelivery(base: string, sandbox: SandboxNumber, from: string, text: string, at = new Date()): { id: string; request: HttpRequest } {
  const { id, envelope } = buildPlatformAInbound(
    { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER, from, type: "text", text },
    { platform: "PLATFORM_A", ...sandbox },
    null,
    at,
  );
  const raw = JSON.stringify(envelope);
  return {
    id,
    request: {
      method: "POST",
      url: `${base}/api/providers/platform-a/webhook`,
      headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(simulatorAppSecret("PLATFORM_A"), raw) },
      body: raw,
    },
  };
}
