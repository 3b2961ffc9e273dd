CREATE TABLE "function_invocations" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"function_id" text NOT NULL,
	"version_id" text,
	"event_type" text NOT NULL,
	"status" text NOT NULL,
	"cpu_ms" integer,
	"sub_requests" integer,
	"duration_ms" integer,
	"error" text,
	"logs" jsonb NOT NULL,
	"input" jsonb,
	"result" jsonb,
	"result_bytes" bigint,
	"started_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "function_kv" (
	"function_id" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "function_kv_function_id_key_pk" PRIMARY KEY("function_id","key")
);
--> statement-breakpoint
CREATE TABLE "function_secrets" (
	"function_id" text NOT NULL,
	"name" text NOT NULL,
	"sealed_value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "function_secrets_function_id_name_pk" PRIMARY KEY("function_id","name")
);
--> statement-breakpoint
CREATE TABLE "function_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"function_id" text NOT NULL,
	"number" integer NOT NULL,
	"source" text NOT NULL,
	"code" text NOT NULL,
	"source_map" text,
	"runtime" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hosted_functions" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"trigger_type" text NOT NULL,
	"runtime" text NOT NULL,
	"script_name" text NOT NULL,
	"active_version_id" text,
	"expose_as_mcp_tool" boolean DEFAULT false NOT NULL,
	"input_schema" jsonb,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_deployed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "function_invocations" ADD CONSTRAINT "function_invocations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "function_invocations" ADD CONSTRAINT "function_invocations_function_id_hosted_functions_id_fk" FOREIGN KEY ("function_id") REFERENCES "public"."hosted_functions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "function_kv" ADD CONSTRAINT "function_kv_function_id_hosted_functions_id_fk" FOREIGN KEY ("function_id") REFERENCES "public"."hosted_functions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "function_secrets" ADD CONSTRAINT "function_secrets_function_id_hosted_functions_id_fk" FOREIGN KEY ("function_id") REFERENCES "public"."hosted_functions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "function_versions" ADD CONSTRAINT "function_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "function_versions" ADD CONSTRAINT "function_versions_function_id_hosted_functions_id_fk" FOREIGN KEY ("function_id") REFERENCES "public"."hosted_functions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosted_functions" ADD CONSTRAINT "hosted_functions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "function_invocations_function" ON "function_invocations" USING btree ("project_id","function_id","id");--> statement-breakpoint
CREATE INDEX "function_invocations_started" ON "function_invocations" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "function_versions_number" ON "function_versions" USING btree ("function_id","number");--> statement-breakpoint
CREATE INDEX "function_versions_function" ON "function_versions" USING btree ("project_id","function_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "hosted_functions_project_slug" ON "hosted_functions" USING btree ("project_id","slug");--> statement-breakpoint
CREATE INDEX "hosted_functions_project_id" ON "hosted_functions" USING btree ("project_id","id");