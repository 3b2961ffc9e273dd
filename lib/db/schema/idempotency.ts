import { integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt } from "./columns";

/** Idempotency records, scoped to (project, method, path) and kept 24 h (docs/spec/decisions.md "Idempotency"). */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_progress", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    /** While in progress: when another request may take the key over (the first one died). */
    lockedUntil: at("locked_until"),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
  },
  (t) => [uniqueIndex("idempotency_scope").on(t.projectId, t.method, t.path, t.key)],
);
