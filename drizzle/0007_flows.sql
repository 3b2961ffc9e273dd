CREATE TABLE "flow_dispatches" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"flow_id" text NOT NULL,
	"flow_version" integer NOT NULL,
	"flow_token" text NOT NULL,
	"channel_id" text NOT NULL,
	"conversation_id" text,
	"contact_id" text,
	"to" text,
	"message_id" text,
	"locale" text,
	"status" text NOT NULL,
	"idempotency_key" text,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"flow_id" text NOT NULL,
	"dispatch_id" text NOT NULL,
	"flow_token" text NOT NULL,
	"conversation_id" text,
	"contact_id" text,
	"from" text,
	"message_id" text,
	"status" text NOT NULL,
	"submission" jsonb NOT NULL,
	"errors" jsonb,
	"event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_versions" (
	"flow_id" text NOT NULL,
	"version" integer NOT NULL,
	"flow_json" json NOT NULL,
	"field_schema" jsonb NOT NULL,
	"meta_flow_id" text NOT NULL,
	"meta_waba_id" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "flow_versions_flow_id_version_pk" PRIMARY KEY("flow_id","version")
);
--> statement-breakpoint
CREATE TABLE "flows" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"config_key" text,
	"locale" text,
	"name" text NOT NULL,
	"description" text,
	"status" text NOT NULL,
	"meta_status" text,
	"meta_status_reason" text,
	"validation_errors" jsonb,
	"runtime_mode" text NOT NULL,
	"data_exchange_url" text,
	"draft" json,
	"source_flow_json" json,
	"flow_json" json,
	"field_schema" jsonb,
	"published_version" integer,
	"meta_flow_id" text,
	"meta_waba_id" text,
	"publish_channel_id" text,
	"publishing_flow_json" json,
	"publishing_field_schema" jsonb,
	"revision" integer DEFAULT 1 NOT NULL,
	"published_revision" integer,
	"last_synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "flow_public_key" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "flow_private_key_sealed" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "flow_key_registered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "flow_dispatches" ADD CONSTRAINT "flow_dispatches_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_dispatches" ADD CONSTRAINT "flow_dispatches_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_submissions" ADD CONSTRAINT "flow_submissions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_submissions" ADD CONSTRAINT "flow_submissions_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_versions" ADD CONSTRAINT "flow_versions_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flow_dispatches_token" ON "flow_dispatches" USING btree ("flow_token");--> statement-breakpoint
CREATE INDEX "flow_dispatches_flow" ON "flow_dispatches" USING btree ("project_id","flow_id","id");--> statement-breakpoint
CREATE INDEX "flow_dispatches_idempotency" ON "flow_dispatches" USING btree ("project_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "flow_dispatches_expiry" ON "flow_dispatches" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "flow_submissions_token" ON "flow_submissions" USING btree ("flow_token");--> statement-breakpoint
CREATE INDEX "flow_submissions_flow" ON "flow_submissions" USING btree ("project_id","flow_id","id");--> statement-breakpoint
CREATE INDEX "flow_versions_meta_flow_id" ON "flow_versions" USING btree ("meta_flow_id");--> statement-breakpoint
CREATE INDEX "flows_project_id" ON "flows" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "flows_project_key_locale" ON "flows" USING btree ("project_id","config_key",coalesce("locale", '')) WHERE "flows"."config_key" is not null and "flows"."status" <> 'DEPRECATED';--> statement-breakpoint
CREATE INDEX "flows_meta_flow_id" ON "flows" USING btree ("meta_flow_id");