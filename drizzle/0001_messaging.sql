CREATE TABLE "contact_identities" (
	"id" text PRIMARY KEY NOT NULL,
	"contact_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"organization_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"platform" text NOT NULL,
	"phone" text,
	"user_id" text,
	"parent_user_id" text,
	"username" text,
	"name" text,
	"reference_id" text,
	"preferred_language" text,
	"status" text DEFAULT 'active' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contacts_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"last_channel_id" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"handoff_status" text DEFAULT 'AI_ACTIVE' NOT NULL,
	"handoff_reason" text,
	"handoff_at" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"deliver" boolean NOT NULL,
	"route" text NOT NULL,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"body" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"direction" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"content" text,
	"body" jsonb NOT NULL,
	"platform_message_id" text,
	"recipient" text,
	"reply_to" text,
	"failure" jsonb,
	"media" jsonb,
	"idempotency_key" text,
	"provider_timestamp" timestamp with time zone,
	"timestamp" timestamp with time zone NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "opt_ins" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"opted_in_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_identities" ADD CONSTRAINT "contact_identities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_ins" ADD CONSTRAINT "opt_ins_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_identities_org_kind_value" ON "contact_identities" USING btree ("organization_id","kind","value");--> statement-breakpoint
CREATE INDEX "contact_identities_contact" ON "contact_identities" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "contacts_project_id_desc" ON "contacts" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_project_contact" ON "conversations" USING btree ("project_id","contact_id");--> statement-breakpoint
CREATE INDEX "conversations_project_id" ON "conversations" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "events_project_id" ON "events" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_project_dedupe" ON "events" USING btree ("project_id","dedupe_key");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_channel_platform_id" ON "messages" USING btree ("channel_id","platform_message_id");--> statement-breakpoint
CREATE INDEX "messages_project_idempotency" ON "messages" USING btree ("project_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "messages_conversation_id" ON "messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE INDEX "messages_window" ON "messages" USING btree ("conversation_id","channel_id","direction","provider_timestamp");--> statement-breakpoint
CREATE UNIQUE INDEX "opt_ins_project_contact" ON "opt_ins" USING btree ("project_id","contact_id");