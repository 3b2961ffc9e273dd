import { bigint, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";
import { messages } from "./messages";

/**
 * One inbound media file and its cached copy (docs/spec/service-spec.md: Events → Inbound media). The bytes live in the
 * storage port under `storage_key`; this row is what the signed download URL and Message.media read.
 *
 * status: available (bytes cached and retained), unavailable (caching failed after retries;
 * error_code says why), expired (the retention deadline passed and the bytes were deleted).
 * expires_at is the retention deadline (cached_at + the plan's retention), not a URL deadline.
 */
export const media = pgTable(
  "media",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    /** platform_a, platform_b, platform_c. */
    provider: text("provider", { enum: ["platform_a", "platform_b", "platform_c"] }).notNull(),
    /** The provider's media id (PLATFORM_A); null when only a temporary source URL is known. */
    providerMediaId: text("provider_media_id"),
    /** Where the bytes were fetched from (B/C attachment URL, or A's resolved download URL). */
    sourceUrl: text("source_url"),
    /** image, audio, video, document, sticker, ... */
    type: text("type").notNull(),
    mimeType: text("mime_type"),
    fileName: text("file_name"),
    fileSize: bigint("file_size", { mode: "number" }),
    /** Hex SHA-256 of the cached bytes (also the download ETag). */
    sha256: text("sha256"),
    storageKey: text("storage_key"),
    status: text("status", { enum: ["available", "unavailable", "expired"] }).notNull(),
    errorCode: text("error_code"),
    attempts: integer("attempts").notNull().default(0),
    cachedAt: at("cached_at"),
    /** Retention deadline; null until the bytes are cached. */
    expiresAt: at("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("media_project_id").on(t.projectId, t.id),
    index("media_message").on(t.messageId),
    // The retention job scans available rows by deadline.
    index("media_status_expires").on(t.status, t.expiresAt),
  ],
);

export type MediaRow = typeof media.$inferSelect;
