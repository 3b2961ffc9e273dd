CREATE TABLE "automation_evaluations" (
	"message_id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"outcome" text NOT NULL,
	"run_id" text,
	"reason" text,
	"automations" jsonb NOT NULL,
	"decided_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "arrival_routing_mode" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "arrival_handoff" boolean;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "step_log" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_evaluations" ADD CONSTRAINT "automation_evaluations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;