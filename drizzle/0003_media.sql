CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"message_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_media_id" text,
	"source_url" text,
	"type" text NOT NULL,
	"mime_type" text,
	"file_name" text,
	"file_size" bigint,
	"sha256" text,
	"storage_key" text,
	"status" text NOT NULL,
	"error_code" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"cached_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_project_id" ON "media" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "media_message" ON "media" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "media_status_expires" ON "media" USING btree ("status","expires_at");