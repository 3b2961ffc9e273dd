import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { channels, projects } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * Migration 0017: a channel's routing_mode may be null (it follows its project). Until then an AGENT
 * project handed every channel to its agent whatever the channel's own mode; the migration makes those
 * channels follow their project, so their inbound keeps going where it went (the agent).
 */
const MIGRATION = readFileSync(path.join(process.cwd(), "drizzle/0018_channel_routing_follows_project.sql"), "utf8");
const dataStatement = MIGRATION.split("--> statement-breakpoint").find((part) => part.includes("UPDATE"))!;

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

let counter = 0;
async function projectWithChannel(mode: "EXTERNAL" | "FLOWS" | "AGENT", own: "EXTERNAL" | "FLOWS" | "NONE"): Promise<{ seeded: Seeded; channelId: string }> {
  const seeded = await app.seed({ orgName: `Migration ${++counter}` });
  const res = await app.call("POST", "/channels", {
    key: seeded.key,
    body: {
      platform: "PLATFORM_A",
      routing_mode: own,
      credentials: { phone_number_id: `pn-migrate-${counter}`, business_account_id: `waba-migrate-${counter}`, access_token: "t" },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await app.db.update(projects).set({ routingMode: mode }).where(eq(projects.id, seeded.projectId));
  forgetAuthenticatedKeys();
  return { seeded, channelId: res.body.id as string };
}

const modeOf = async (id: string) => (await app.db.select({ mode: channels.routingMode }).from(channels).where(eq(channels.id, id)))[0]!.mode;

describe("migration 0017", () => {
  it("lets routing_mode be null", async () => {
    const { channelId } = await projectWithChannel("EXTERNAL", "EXTERNAL");
    await app.db.update(channels).set({ routingMode: null }).where(eq(channels.id, channelId));
    expect(await modeOf(channelId)).toBeNull();
  });

  it("makes the channels of AGENT projects follow their project, and leaves every other channel and the sandbox alone", async () => {
    const underAgent = await projectWithChannel("AGENT", "EXTERNAL");
    const flowsUnderAgent = await projectWithChannel("AGENT", "FLOWS");
    const underExternal = await projectWithChannel("EXTERNAL", "FLOWS");
    // A channel from before channels carried their project: linked by the project's channel_id only.
    const legacy = await projectWithChannel("AGENT", "NONE");
    await app.db.update(channels).set({ projectId: null }).where(eq(channels.id, legacy.channelId));
    const sandboxBefore = await modeOf(SANDBOX_CHANNEL_ID);

    await app.db.execute(sql.raw(dataStatement));

    expect(await modeOf(underAgent.channelId)).toBeNull();
    expect(await modeOf(flowsUnderAgent.channelId)).toBeNull();
    expect(await modeOf(legacy.channelId)).toBeNull();
    expect(await modeOf(underExternal.channelId)).toBe("FLOWS");
    expect(await modeOf(SANDBOX_CHANNEL_ID)).toBe(sandboxBefore);
  });
});
