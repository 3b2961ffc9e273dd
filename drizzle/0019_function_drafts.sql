CREATE TABLE "function_drafts" (
	"function_id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"source" text NOT NULL,
	"bytes" integer NOT NULL,
	"base_version_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "function_drafts" ADD CONSTRAINT "function_drafts_function_id_hosted_functions_id_fk" FOREIGN KEY ("function_id") REFERENCES "public"."hosted_functions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "function_drafts" ADD CONSTRAINT "function_drafts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;