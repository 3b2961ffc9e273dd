import { eq } from "drizzle-orm";
import { channels, templates } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import type { Db } from "@/lib/ports/db/types";
import type { Harness } from "../messages/support";

/** What the provider reports for a business that may submit templates (readiness: no blockers). */
export const READY = {
  businessVerificationStatus: "verified",
  accountReviewStatus: "APPROVED",
  phoneNumberStatus: "CONNECTED",
  paymentStatus: "active",
} as const;

let numbers = 0;

/** What the provider has not reported: readiness says META_ACCOUNT_STATUS_UNKNOWN and PAYMENT_STATUS_UNKNOWN. */
export const UNKNOWN = { businessVerificationStatus: null, accountReviewStatus: null, phoneNumberStatus: null, paymentStatus: null } as const;

/**
 * Connects a dedicated PLATFORM_A number for the key's project. The connect reads its statuses from
 * the simulator (ready); `ready: false` sets them back to unknown, as for a provider that has not said.
 */
export async function connectNumber(h: Harness, key: string, options: { ready?: boolean } = {}) {
  const n = `${process.pid}-${++numbers}`;
  const res = await h.app.call("POST", "/channels", {
    key,
    body: { platform: "PLATFORM_A", credentials: { phone_number_id: `pn-tmpl-${n}`, business_account_id: `waba-tmpl-${n}`, access_token: "t" } },
  });
  if (res.status !== 200) throw new Error(`connect: ${res.status} ${JSON.stringify(res.body)}`);
  await h.app.db
    .update(channels)
    .set((options.ready ?? true) ? READY : UNKNOWN)
    .where(eq(channels.id, res.body.id));
  return { id: res.body.id as string, businessAccountId: `waba-tmpl-${n}` };
}

/** A valid UTILITY template with one positional body variable (the simulator's review approves it). */
export function templateBody(channelId: string, overrides: Record<string, unknown> = {}) {
  return {
    channel_id: channelId,
    name: "order_shipped",
    language: "en_US",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Your order {{1}} has shipped.", example: { body_text: [["A-1"]] } }],
    ...overrides,
  };
}

export async function createTemplate(h: Harness, key: string, body: Record<string, unknown>) {
  const res = await h.app.call("POST", "/templates", { key, body });
  if (res.status !== 200) throw new Error(`create template: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; meta_template_id: string; name: string } & Record<string, any>;
}

/** The simulator's reviewer forced to a result: it delivers the signed review webhook to our endpoint at once. */
export async function forceReview(h: Harness, metaTemplateId: string, body: { status: string; reason?: string }) {
  const res = await fetch(`${h.server.url}/api/simulator/templates/${metaTemplateId}/review`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`simulator review: ${res.status} ${await res.text()}`);
  return (await res.json()) as { delivered_status: number | null };
}

/**
 * A template row as a review would leave it (APPROVED unless `status` says otherwise), written
 * directly: for suites whose subject is not the templates API but whose sends must name one.
 */
export async function seedTemplate(
  db: Db,
  input: { projectId: string; channelId: string; name: string; language: string; components?: Record<string, unknown>[]; status?: "APPROVED" | "PENDING" },
) {
  const now = new Date();
  const [row] = await db
    .insert(templates)
    .values({
      id: newId("template", now.getTime()),
      projectId: input.projectId,
      channelId: input.channelId,
      metaTemplateId: null,
      name: input.name,
      language: input.language,
      category: "UTILITY",
      parameterFormat: "POSITIONAL",
      status: input.status ?? "APPROVED",
      components: input.components ?? [{ type: "BODY", text: `Hello from ${input.name}.` }],
      submittedAt: now,
      approvedAt: (input.status ?? "APPROVED") === "APPROVED" ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}
