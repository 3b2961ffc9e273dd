import { eq } from "drizzle-orm";
import type { ZodType } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "@/lib/db/schema";
import { AUDIT_DETAILS, urlWithoutSecrets } from "@/lib/domain/audit/actions";
import { recordAudit, type AuditCtx, type AuditInput } from "@/lib/domain/audit/record";
import { AUDIT_ACTION_TARGETS, AUDIT_ACTIONS } from "@/lib/shared/audit-actions";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * The parsed union of audit entries (lib/domain/audit/actions.ts): what TypeScript refuses at the call
 * site, what recordAudit refuses at run time before anything is written, and that no action has a
 * field a secret could travel in.
 */

let app: TestApp;
let seeded: Seeded;
let ctx: AuditCtx;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed({ projectName: "Union" });
  ctx = { ...app.systemCtx(), project: { id: seeded.projectId, organizationId: seeded.orgId } };
});
afterAll(() => app?.close());

const rows = () => app.db.select().from(auditEvents).where(eq(auditEvents.projectId, seeded.projectId));

describe("the union at the call site", () => {
  it("names each action's target type, and TypeScript refuses an unknown action, a wrong target or a field the action does not list", () => {
    // Checked by `npm run typecheck`: each line below must stay an error.
    const refused: AuditInput[] = [
      // @ts-expect-error an action that is not in the union
      { action: "api_key.deleted", target: { type: "api_key", id: "key_1" }, details: {} },
      // @ts-expect-error function.secret_set is recorded against a function, not a project
      { action: "function.secret_set", target: { type: "project", id: "proj_1" }, details: { slug: "a", name: "A", created: true } },
      // @ts-expect-error a secret's value is no field of function.secret_set
      { action: "function.secret_set", target: { type: "function", id: "fn_1" }, details: { slug: "a", name: "A", created: true, value: "sk_live" } },
    ];
    expect(refused).toHaveLength(3);
    expect(Object.keys(AUDIT_DETAILS)).toEqual(AUDIT_ACTIONS);
    expect(Object.keys(AUDIT_ACTION_TARGETS)).toEqual(AUDIT_ACTIONS);
  });

  it("no action's details has a free-text field named for a secret", () => {
    const suspicious = /secret|token|password|credential|^value$|^key$|^url$/;
    // A flag (has_secret) or a fixed word (secret_change: set | removed) says what happened; only free text could carry one.
    const freeText = Object.entries(AUDIT_DETAILS).flatMap(([action, schema]) =>
      Object.entries(schema.shape as Record<string, ZodType>)
        .filter(([, field]) => field.safeParse("any free text").success)
        .map(([name]) => `${action}.${name}`),
    );
    expect(freeText.length).toBeGreaterThan(10);
    expect(freeText.filter((field) => suspicious.test(field.split(".").pop()!))).toEqual([]);
  });
});

describe("recordAudit parses before it writes", () => {
  it("writes a valid entry", async () => {
    await recordAudit(ctx, { action: "function.secret_deleted", target: { type: "function", id: "fn_01" }, details: { slug: "bot", name: "OLD" } });
    expect((await rows()).map((row) => [row.action, row.targetType, row.details])).toEqual([
      ["function.secret_deleted", "function", { slug: "bot", name: "OLD" }],
    ]);
  });

  it.each([
    [
      "a field the action does not list",
      { action: "function.secret_set", target: { type: "function", id: "fn_1" }, details: { slug: "a", name: "A", created: true, value: "sk_live_x" } },
    ],
    [
      "a target id of another kind",
      {
        action: "channel.connected",
        target: { type: "channel", id: "fn_1" },
        details: { platform: "PLATFORM_A", display_name: null, phone_number: null, routing_mode: null },
      },
    ],
    ["a target type of another action", { action: "contact.erased", target: { type: "channel", id: "ch_1" }, details: { deleted_data_types: [] } }],
    ["an unknown action", { action: "project.deleted", target: { type: "project", id: "proj_1" }, details: {} }],
    [
      "a webhook URL with its query",
      { action: "project.webhook_url_changed", target: { type: "project", id: "proj_1" }, details: { from: null, to: "https://h.example/in?token=x" } },
    ],
  ])("refuses %s, and writes nothing", async (_, input) => {
    const before = (await rows()).length;
    await expect(recordAudit(ctx, input as AuditInput)).rejects.toThrow();
    expect(await rows()).toHaveLength(before);
  });
});

describe("urlWithoutSecrets", () => {
  it("keeps the origin and path only", () => {
    expect(urlWithoutSecrets("https://user:pw@hooks.example.com:8443/in/x?token=abc#frag")).toBe("https://hooks.example.com:8443/in/x");
    expect(urlWithoutSecrets(null)).toBeNull();
  });
});
