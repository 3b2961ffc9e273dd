import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { channels, flowDispatches, flowVersions, flows, projects } from "@/lib/db/schema";
import { seal } from "@/lib/crypto/secrets";
import { generateWebhookSecret } from "@/lib/domain/projects/secrets";
import { encryptFlowRequest, generateFlowKeyPair } from "@/lib/domain/flows/exchange/crypto";
import { signPayload } from "@/lib/ports/provider/app-secret";
import { newId } from "@/lib/ids";
import type { TestApp } from "../support/app";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/** Seeds what a DATA_EXCHANGE call needs, straight into the test's database: a keyed channel, a published flow, a dispatch. */
export const FLOW_JSON = {
  version: "7.3",
  data_api_version: "3.0",
  routing_model: { WELCOME: ["DETAILS"], DETAILS: [] },
  screens: [
    { id: "WELCOME", title: "Welcome", layout: { type: "SingleColumnLayout", children: [] } },
    { id: "DETAILS", title: "Details", terminal: true, layout: { type: "SingleColumnLayout", children: [] } },
  ],
};

export interface ExchangeSeed {
  orgId: string;
  projectId: string;
  wabaId: string;
  channelId: string;
  phoneNumberId: string;
  flowId: string;
  flowToken: string;
  dispatchId: string;
  publicKeyPem: string;
  webhookSecret: string;
}

const rand = () => randomBytes(6).toString("hex");

// RSA key generation is slow on a busy machine: the channels of one test file share a pair.
let sharedPair: ReturnType<typeof generateFlowKeyPair> | null = null;

export async function seedChannelWithKeys(
  app: TestApp,
  organizationId: string,
  projectId: string,
  wabaId: string,
  keys = (sharedPair ??= generateFlowKeyPair()),
) {
  const channelId = newId("channel");
  const phoneNumberId = `pn-${rand()}`;
  await app.db.insert(channels).values({
    id: channelId,
    organizationId,
    projectId,
    platform: "PLATFORM_A",
    status: "connected",
    numberMode: "dedicated",
    providerSenderId: phoneNumberId,
    businessAccountId: wabaId,
    flowPublicKey: keys.publicKeyPem,
    flowPrivateKeySealed: seal(keys.privateKeyPem),
    flowKeyRegisteredAt: app.clock.now(),
  });
  return { channelId, phoneNumberId, publicKeyPem: keys.publicKeyPem };
}

export async function seedDispatch(
  app: TestApp,
  seed: { projectId: string; flowId: string; channelId: string },
  overrides: Partial<typeof flowDispatches.$inferInsert> = {},
) {
  const row = {
    id: newId("flowDispatch"),
    projectId: seed.projectId,
    flowId: seed.flowId,
    flowVersion: 1,
    flowToken: `svcft_${randomBytes(20).toString("hex")}`,
    channelId: seed.channelId,
    contactId: newId("contact"),
    status: "SENT" as const,
    expiresAt: new Date(app.clock.now().getTime() + 30 * 24 * 3600_000),
    ...overrides,
  };
  await app.db.insert(flowDispatches).values(row);
  return row;
}

/** A project with a webhook secret, its keyed number, a PUBLISHED DATA_EXCHANGE flow (version 1) and one SENT dispatch. */
export async function seedExchange(app: TestApp, dataExchangeUrl: string | null): Promise<ExchangeSeed> {
  const seeded = await app.seed();
  const webhookSecret = generateWebhookSecret();
  await app.db
    .update(projects)
    .set({ webhookSecretSealed: seal(webhookSecret) })
    .where(eq(projects.id, seeded.projectId));
  forgetAuthenticatedKeys();
  const wabaId = `waba-${rand()}`;
  const channel = await seedChannelWithKeys(app, seeded.orgId, seeded.projectId, wabaId);
  const flowId = newId("flow");
  const metaFlowId = `mf-${rand()}`;
  await app.db.insert(flows).values({
    id: flowId,
    projectId: seeded.projectId,
    name: "Booking",
    status: "PUBLISHED",
    metaStatus: "PUBLISHED",
    runtimeMode: "DATA_EXCHANGE",
    dataExchangeUrl,
    flowJson: FLOW_JSON,
    fieldSchema: [],
    publishedVersion: 1,
    metaFlowId,
    metaWabaId: wabaId,
    publishChannelId: channel.channelId,
  });
  await app.db
    .insert(flowVersions)
    .values({ flowId, version: 1, flowJson: FLOW_JSON, fieldSchema: [], metaFlowId, metaWabaId: wabaId, publishedAt: app.clock.now() });
  const dispatch = await seedDispatch(app, { projectId: seeded.projectId, flowId, channelId: channel.channelId });
  return {
    orgId: seeded.orgId,
    projectId: seeded.projectId,
    wabaId,
    ...channel,
    flowId,
    flowToken: dispatch.flowToken,
    dispatchId: dispatch.id,
    webhookSecret,
  };
}

/** What the provider posts: the payload encrypted for `publicKeyPem`, the raw body signed with `appSecret`. */
export function providerRequest(payload: Record<string, unknown>, publicKeyPem: string, appSecret: string) {
  const { body, aesKey, iv } = encryptFlowRequest(payload, publicKeyPem);
  const rawBody = JSON.stringify(body);
  return { rawBody, signature: signPayload(appSecret, rawBody), aesKey, iv };
}
