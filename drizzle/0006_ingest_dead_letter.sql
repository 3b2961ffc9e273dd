ALTER TABLE "inbound_webhooks" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "inbound_webhooks" ADD COLUMN "dead_lettered_at" timestamp with time zone;