CREATE TABLE "cli_device_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"device_code_hash" text NOT NULL,
	"user_code" text NOT NULL,
	"status" text NOT NULL,
	"client_host" text NOT NULL,
	"request_ip" text,
	"project_id" text,
	"organization_id" text,
	"scopes" jsonb,
	"approved_by_user_id" text,
	"api_key_id" text,
	"sealed_key" text,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cli_device_codes_device_code_hash_unique" UNIQUE("device_code_hash")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"actor_display" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"details" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cli_device_codes_user_code" ON "cli_device_codes" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "audit_events_project_id" ON "audit_events" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "audit_events_created_at" ON "audit_events" USING btree ("created_at");