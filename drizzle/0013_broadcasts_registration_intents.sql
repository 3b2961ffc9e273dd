CREATE TABLE "broadcast_recipients" (
	"id" text PRIMARY KEY NOT NULL,
	"broadcast_id" text NOT NULL,
	"project_id" text NOT NULL,
	"to" text NOT NULL,
	"contact_id" text,
	"parameters" jsonb,
	"status" text NOT NULL,
	"skip_reason" text,
	"message_id" text,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"replied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"template_id" text NOT NULL,
	"template_name" text NOT NULL,
	"template_language" text NOT NULL,
	"status" text NOT NULL,
	"send_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"pause_reason" text,
	"run_generation" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"mode" text NOT NULL,
	"token" text NOT NULL,
	"status" text NOT NULL,
	"customer_reference" text NOT NULL,
	"prefilled_message" text NOT NULL,
	"whatsapp_number" text NOT NULL,
	"metadata" jsonb,
	"api_key_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"contact_id" text,
	"message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_intents_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "throughput_mps" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "broadcast_id" text;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_intents" ADD CONSTRAINT "registration_intents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_recipients_to" ON "broadcast_recipients" USING btree ("broadcast_id","to");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_status" ON "broadcast_recipients" USING btree ("broadcast_id","status","id");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_message" ON "broadcast_recipients" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_contact" ON "broadcast_recipients" USING btree ("project_id","contact_id");--> statement-breakpoint
CREATE INDEX "broadcasts_project_id" ON "broadcasts" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "broadcasts_template" ON "broadcasts" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "registration_intents_project_id" ON "registration_intents" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "registration_intents_contact" ON "registration_intents" USING btree ("project_id","contact_id");