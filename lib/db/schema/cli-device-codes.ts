import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt } from "./columns";

export const DEVICE_CODE_STATUSES = ["PENDING", "APPROVED", "DENIED", "CLAIMED"] as const;

/**
 * `svc login`'s device-code flow (docs/spec/decisions.md "Developer tools"): the CLI holds the
 * device code (stored hashed), the operator types or opens the short user code in the dashboard and
 * picks a project and scopes; the CLI's next poll takes the new key once (CLAIMED). Not tied to a
 * project until approved.
 */
export const cliDeviceCodes = pgTable(
  "cli_device_codes",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the device code the CLI polls with; the code itself is never stored. */
    deviceCodeHash: text("device_code_hash").notNull().unique(),
    /** 8 characters from an unambiguous alphabet, shown as XXXX-XXXX; unique while pending. */
    userCode: text("user_code").notNull(),
    status: text("status", { enum: DEVICE_CODE_STATUSES }).notNull(),
    /** The CLI's host name, for the key's name ("CLI on <host>") and the confirmation page. */
    clientHost: text("client_host").notNull(),
    requestIp: text("request_ip"),
    projectId: text("project_id"),
    organizationId: text("organization_id"),
    scopes: jsonb("scopes").$type<string[]>(),
    approvedByUserId: text("approved_by_user_id"),
    /** The key minted on approval; its value is sealed until the one poll that claims it. */
    apiKeyId: text("api_key_id"),
    sealedKey: text("sealed_key"),
    expiresAt: at("expires_at").notNull(),
    decidedAt: at("decided_at"),
    claimedAt: at("claimed_at"),
    lastPolledAt: at("last_polled_at"),
    createdAt: createdAt(),
  },
  (t) => [index("cli_device_codes_user_code").on(t.userCode)],
);
