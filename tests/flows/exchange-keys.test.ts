import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { channels } from "@/lib/db/schema";
import { unseal } from "@/lib/crypto/secrets";
import type { SystemCtx } from "@/lib/domain/context";
import { decryptFlowRequest, encryptFlowRequest } from "@/lib/domain/flows/exchange/crypto";
import { ensureFlowKeys } from "@/lib/domain/flows/exchange/keys";
import { getSandboxChannel } from "@/lib/domain/channels/sandbox";
import { newId } from "@/lib/ids";
import { ProviderError, type ProviderAccount } from "@/lib/ports/provider/types";
import { seal } from "@/lib/crypto/secrets";
import { createTestApp, type TestApp } from "../support/app";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** A system ctx whose provider records key registrations (or refuses them while `refuse` is set). */
function recordingCtx() {
  const registered: { account: ProviderAccount; publicKeyPem: string }[] = [];
  const control = { refuse: false };
  const base = app.systemCtx();
  const flowsPort = {
    ...base.ports.provider.flows,
    async registerEncryptionKey(account: ProviderAccount, publicKeyPem: string) {
      if (control.refuse) {
        throw new ProviderError(
          {
            provider: "provider",
            summary: "unavailable",
            code: 2,
            subcode: null,
            type: null,
            title: null,
            message: "unavailable",
            fbtrace_id: null,
            http_status: 503,
            occurred_at: new Date().toISOString(),
          },
          true,
        );
      }
      registered.push({ account, publicKeyPem });
    },
  };
  const ctx: SystemCtx = { ...base, ports: { ...base.ports, provider: { ...base.ports.provider, flows: flowsPort } } };
  return { ctx, registered, control };
}

async function newChannel() {
  const seeded = await app.seed();
  const id = newId("channel");
  const [row] = await app.db
    .insert(channels)
    .values({
      id,
      organizationId: seeded.orgId,
      projectId: seeded.projectId,
      platform: "PLATFORM_A",
      status: "connected",
      numberMode: "dedicated",
      providerSenderId: `pn-${randomBytes(6).toString("hex")}`,
      businessAccountId: "waba-keys",
      credentialsSealed: seal(JSON.stringify({ access_token: "EAAG-channel-token" })),
    })
    .returning();
  return row!;
}

async function reread(id: string) {
  const [row] = await app.db.select().from(channels).where(eq(channels.id, id));
  return row!;
}

describe("ensureFlowKeys", () => {
  it("generates an RSA-2048 pair once, seals the private key, and registers the public key with the channel's token", async () => {
    const { ctx, registered } = recordingCtx();
    const channel = await newChannel();
    const { publicKeyPem } = await ensureFlowKeys(ctx, channel);
    const stored = await reread(channel.id);
    expect(stored.flowPublicKey).toBe(publicKeyPem);
    expect(stored.flowPrivateKeySealed).not.toMatch(/PRIVATE KEY/);
    expect(stored.flowKeyRegisteredAt).toEqual(ctx.now);
    // The sealed private key is the public key's pair.
    const request = encryptFlowRequest({ action: "ping" }, publicKeyPem);
    expect(decryptFlowRequest(request.body, unseal(stored.flowPrivateKeySealed!)).payload).toEqual({ action: "ping" });
    expect(registered).toEqual([
      { account: { businessAccountId: "waba-keys", phoneNumberId: channel.providerSenderId, accessToken: "EAAG-channel-token" }, publicKeyPem },
    ]);

    // Called again (even with the stale row): same key, no second registration.
    expect((await ensureFlowKeys(ctx, channel)).publicKeyPem).toBe(publicKeyPem);
    expect(registered).toHaveLength(1);
  });

  it("keeps one key pair when two publish jobs race", async () => {
    const { ctx } = recordingCtx();
    const channel = await newChannel();
    const [a, b] = await Promise.all([ensureFlowKeys(ctx, channel), ensureFlowKeys(ctx, channel)]);
    expect(a.publicKeyPem).toBe(b.publicKeyPem);
    expect((await reread(channel.id)).flowPublicKey).toBe(a.publicKeyPem);
  });

  it("keeps the key when the registration fails, and registers it on the next call", async () => {
    const { ctx, registered, control } = recordingCtx();
    const channel = await newChannel();
    control.refuse = true;
    await expect(ensureFlowKeys(ctx, channel)).rejects.toSatisfy((error) => ProviderError.is(error));
    const stored = await reread(channel.id);
    expect(stored.flowPublicKey).toBeTruthy();
    expect(stored.flowKeyRegisteredAt).toBeNull();
    control.refuse = false;
    const { publicKeyPem } = await ensureFlowKeys(ctx, stored);
    expect(publicKeyPem).toBe(stored.flowPublicKey);
    expect(registered).toHaveLength(1);
    expect((await reread(channel.id)).flowKeyRegisteredAt).not.toBeNull();
  });

  it("registers the shared sandbox number's key with the configured sandbox token", async () => {
    const { ctx, registered } = recordingCtx();
    const sandbox = await getSandboxChannel(app.db);
    await ensureFlowKeys(ctx, sandbox);
    expect(registered[0]!.account.accessToken).toBe(ctx.settings.sandboxAccessToken);
  });
});
