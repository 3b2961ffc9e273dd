import { index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { organizations } from "./organizations";
import { projects } from "./projects";
import { channels } from "./channels";

/**
 * A person's identity within an organization: one row per phone number (or per platform user id
 * when no number is known), so a contact id is stable per number across the organization's projects.
 */
export const contactIdentities = pgTable(
  "contact_identities",
  {
    id: text("id").primaryKey(),
    /** The contact id this identity resolves to; several identities (old and new number) can share one. */
    contactId: text("contact_id").notNull(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** "phone" (E.164 digits, platform-independent) or "user:<PLATFORM>" (platform-scoped user id). */
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("contact_identities_org_kind_value").on(t.organizationId, t.kind, t.value), index("contact_identities_contact").on(t.contactId)],
);

/** A contact as one project knows it: same id as its identity, the project's own attributes. */
export const contacts = pgTable(
  "contacts",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    organizationId: text("organization_id").notNull(),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id),
    platform: text("platform").notNull(),
    phone: text("phone"),
    userId: text("user_id"),
    parentUserId: text("parent_user_id"),
    username: text("username"),
    name: text("name"),
    referenceId: text("reference_id"),
    preferredLanguage: text("preferred_language"),
    status: text("status", { enum: ["active", "erased"] })
      .notNull()
      .default("active"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The primary key (project_id, id) is also the index of the contact list's pages, read either way.
    primaryKey({ columns: [t.projectId, t.id] }),
    // The conversation search (q) is a substring of the name or phone, case-insensitive: trigram
    // indexes answer `ilike '%q%'` without reading every contact (README "Performance", Growth).
    index("contacts_name_trgm").using("gin", t.name.op("gin_trgm_ops")),
    index("contacts_phone_trgm").using("gin", t.phone.op("gin_trgm_ops")),
  ],
);
