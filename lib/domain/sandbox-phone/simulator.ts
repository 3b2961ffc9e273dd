import type { Ctx } from "@/lib/domain/context";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { participantProject } from "@/lib/domain/ingest/sandbox-join";
import { SvcError } from "@/lib/errors";
import { derivedKey } from "@/lib/crypto/secrets";

/**
 * How the sandbox phone reaches the built-in provider simulator: over HTTP at the simulator's own
 * URL (the provider port's Graph URL without "/graph"), exactly as any customer-side client would.
 */

const SIMULATOR_GRAPH_SUFFIX = "/api/simulator/graph";

/** The simulator's base URL when the provider port talks to the built-in simulator, else null. */
function simulatorBase(graphUrl: string): string | null {
  const trimmed = graphUrl.replace(/\/+$/, "");
  return trimmed.endsWith(SIMULATOR_GRAPH_SUFFIX) ? trimmed.slice(0, -"/graph".length) : null;
}

/**
 * The header the sandbox phone's calls carry, so a simulator closed to anonymous callers (production
 * without SVC_SIMULATOR_PUBLIC, lib/api/simulator-gate.ts) still answers them: the dashboard has
 * already checked the operator's session, their project and that the number is theirs.
 */
export const SIMULATOR_KEY_HEADER = "x-svc-simulator-key";

/** This installation's simulator key: derived from SVC_ENCRYPTION_KEY, so every web and worker process agrees. */
export function simulatorAccessKey(): string {
  return derivedKey("simulator-access").toString("base64url");
}

function baseOrThrow(graphUrl: string): string {
  const base = simulatorBase(graphUrl);
  if (!base)
    throw new SvcError(
      "conflict",
      "The sandbox phone needs the built-in provider simulator, and PROVIDER_GRAPH_URL points this installation at a real provider. Message the channel from a real phone instead.",
    );
  return base;
}

async function channelFor(ctx: Ctx, channelId: string) {
  const channel = await getChannelRowOrThrow(ctx, channelId);
  if (!channel.providerSenderId) throw new SvcError("conflict", `Channel ${channel.id} has no provider sender id yet, so no customer can write to it.`);
  return channel;
}

// Longer than the simulator's own 10 s wait for our provider endpoint, so its answer always arrives.
const SIMULATOR_TIMEOUT_MS = 25_000;

type SimulatorBody = { error?: { message?: string } } & Record<string, unknown>;

/** One simulator request: its HTTP status and JSON body (null when unreadable). */
export async function simulatorRequest(url: string, init: RequestInit): Promise<{ status: number; body: SimulatorBody | null }> {
  let response: Response;
  try {
    // The simulator URL comes from our own configuration (never from a request), so these calls are
    // not outbound user-chosen URLs and do not go through the SSRF guard.
    const headers = new Headers(init.headers);
    headers.set(SIMULATOR_KEY_HEADER, simulatorAccessKey());
    response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(SIMULATOR_TIMEOUT_MS) });
  } catch (error) {
    throw new SvcError("conflict", `The provider simulator is unreachable at ${url}: ${(error as Error).message}.`);
  }
  return { status: response.status, body: (await response.json().catch(() => null)) as SimulatorBody | null };
}

/** A simulator request that must succeed: a refusal becomes invalid_request with the simulator's reason. */
export async function simulatorCall(url: string, init: RequestInit): Promise<unknown> {
  const { status, body } = await simulatorRequest(url, init);
  if (status < 200 || status >= 300) {
    throw new SvcError("invalid_request", `The simulator refused this customer action: ${body?.error?.message ?? `HTTP ${status}`}.`);
  }
  if (body === null) throw new SvcError("conflict", `The provider simulator answered ${url} without a readable body. Retry.`);
  return body;
}

/**
 * The shared sandbox serves every project: a number that joined another project is that project's
 * tester, so this project's operators may not speak (or read) as it.
 */
async function assertNumberIsOurs(ctx: Ctx, channel: ChannelRow, from: string) {
  if (!channel.isSandbox) return;
  const owner = await participantProject(ctx.db, channel, from.replace(/\D/g, ""));
  if (owner && owner.id !== ctx.project.id) {
    throw new SvcError(
      "conflict",
      `${from} is a sandbox tester of another project. Use a number of your own (any number works in the simulator), then send 'join ${ctx.project.joinCode}'.`,
    );
  }
}

/** The channel a customer of this project may act on: the simulator's base URL, the channel row, the number checked. */
export async function customerChannel(ctx: Ctx, channelId: string, from: string) {
  const base = baseOrThrow(ctx.settings.graphUrl);
  const channel = await channelFor(ctx, channelId);
  await assertNumberIsOurs(ctx, channel, from);
  return { base, channel };
}

/** The sender fields every `POST /customer/messages` carries for this channel. */
function senderFields(channel: ChannelRow) {
  return {
    platform: channel.platform,
    sender_id: channel.providerSenderId,
    ...(channel.businessAccountId ? { business_account_id: channel.businessAccountId } : {}),
    ...(channel.phoneNumber ? { display_phone_number: channel.phoneNumber } : {}),
  };
}

/** Posts one customer message (already shaped for `POST /customer/messages`) and reports how our endpoint took it. */
export async function postCustomerMessage(base: string, channel: ChannelRow, from: string, customer: Record<string, unknown>) {
  const result = (await simulatorCall(`${base}/customer/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...customer, from, ...senderFields(channel) }),
  })) as { message_id: string; delivered_status: number };
  return {
    object: "simulated_customer_message" as const,
    channel_id: channel.id,
    from,
    provider_message_id: result.message_id,
    webhook_status: result.delivered_status,
  };
}
