import { and, eq, inArray } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { participantProject } from "@/lib/domain/ingest/sandbox-join";
import { SvcError } from "@/lib/errors";

/**
 * The dashboard's sandbox phone: an operator acts as a customer of one of the project's channels
 * through the built-in provider simulator, which then sends our provider endpoint a signed webhook
 * exactly as the real provider would. Only available while the simulator is the provider.
 */
export interface CustomerAction {
  channel_id: string;
  from: string;
  name?: string | undefined;
  type: "text" | "image" | "video" | "audio" | "document" | "location" | "button_reply" | "list_reply";
  text?: string | undefined;
  media?: { link?: string | undefined; caption?: string | undefined; mime_type?: string | undefined; filename?: string | undefined } | undefined;
  location?: { latitude: number; longitude: number; name?: string | undefined; address?: string | undefined } | undefined;
  reply?: { id: string; title: string } | undefined;
  reply_to?: string | undefined;
}

const SIMULATOR_GRAPH_SUFFIX = "/api/simulator/graph";

/** The simulator's base URL when the provider port talks to the built-in simulator, else null. */
export function simulatorBase(graphUrl: string): string | null {
  const trimmed = graphUrl.replace(/\/+$/, "");
  return trimmed.endsWith(SIMULATOR_GRAPH_SUFFIX) ? trimmed.slice(0, -"/graph".length) : null;
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

// The simulator URL comes from our own configuration (never from a request), so these calls are not
// outbound user-chosen URLs and do not go through the SSRF guard.
async function simulatorCall(url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(SIMULATOR_TIMEOUT_MS) });
  } catch (error) {
    throw new SvcError("conflict", `The provider simulator is unreachable at ${url}: ${(error as Error).message}.`);
  }
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!response.ok) {
    throw new SvcError("invalid_request", `The simulator refused this customer action: ${body?.error?.message ?? `HTTP ${response.status}`}.`);
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

export async function sendAsCustomer(ctx: Ctx, action: CustomerAction) {
  const base = baseOrThrow(ctx.settings.graphUrl);
  const channel = await channelFor(ctx, action.channel_id);
  await assertNumberIsOurs(ctx, channel, action.from);
  const { channel_id: _channelId, ...customer } = action;
  const body = {
    ...customer,
    platform: channel.platform,
    sender_id: channel.providerSenderId,
    ...(channel.businessAccountId ? { business_account_id: channel.businessAccountId } : {}),
    ...(channel.phoneNumber ? { display_phone_number: channel.phoneNumber } : {}),
  };
  const result = (await simulatorCall(`${base}/customer/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  })) as { message_id: string; delivered_status: number };
  return {
    object: "simulated_customer_message" as const,
    channel_id: channel.id,
    from: action.from,
    provider_message_id: result.message_id,
    webhook_status: result.delivered_status,
  };
}

interface InboxItem {
  id: string;
  type: string;
  text: string | null;
  status: string;
  sent_at: string;
  body: Record<string, unknown>;
}

/** What the business sent to this simulated customer on this channel, oldest first. */
export async function customerInbox(ctx: Ctx, input: { channel_id: string; from: string }) {
  const base = baseOrThrow(ctx.settings.graphUrl);
  const channel = await channelFor(ctx, input.channel_id);
  await assertNumberIsOurs(ctx, channel, input.from);
  const query = new URLSearchParams({ sender_id: channel.providerSenderId!, address: input.from });
  const result = (await simulatorCall(`${base}/customer/inbox?${query}`, { method: "GET" })) as { data: InboxItem[] };
  // Only what this project sent: on the shared sandbox other projects may have written to the number too.
  const ids = result.data.map((m) => m.id);
  const ours = ids.length
    ? new Set(
        (
          await ctx.db
            .select({ id: messages.platformMessageId })
            .from(messages)
            .where(and(eq(messages.projectId, ctx.project.id), inArray(messages.platformMessageId, ids)))
        ).map((r) => r.id),
      )
    : new Set<string | null>();
  return {
    object: "list" as const,
    data: result.data
      .filter((m) => ours.has(m.id))
      .map((m) => ({
        object: "simulated_business_message" as const,
        id: m.id,
        type: m.type,
        text: m.text,
        status: m.status,
        sent_at: m.sent_at,
        body: m.body,
      })),
    has_more: false,
  };
}
