import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Project, ProjectCreate, ProjectSummary, ProjectUpdate, ProjectWebhookSecret } from "@/lib/api/schemas/projects";
import { createProject, getProject, listProjects, rotateWebhookSecret, updateProject } from "@/lib/domain/projects";

const tag = "Projects";

export const projectRoutes = [
  defineRoute({
    method: "GET",
    path: "/projects",
    operationId: "listProjects",
    summary: "List projects (an API key sees its own project)",
    tag,
    scope: "projects:read",
    query: PageQuery,
    response: listOf(ProjectSummary, "ProjectList"),
    handler: async ({ ctx, query }) => ({ object: "list" as const, ...(await listProjects(ctx, query)) }),
  }),
  defineRoute({
    method: "POST",
    path: "/projects",
    operationId: "createProject",
    summary: "Create a project in the key's organization",
    tag,
    scope: "projects:write",
    audit: { exempt: "a new, empty project: its own log starts with it, and its keys, webhook and config changes are audited there" },
    body: ProjectCreate,
    response: Project,
    handler: ({ ctx, body }) => createProject(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/projects/{id}",
    operationId: "getProject",
    summary: "Retrieve a project, with its webhook signing secret",
    tag,
    scope: "projects:read",
    params: IdParam,
    response: Project,
    handler: ({ ctx, params }) => getProject(ctx, params.id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/projects/{id}",
    operationId: "updateProject",
    summary: "Update a project's settings (webhook, routing, opt-in)",
    tag,
    scope: "projects:write",
    audit: ["project.webhook_url_changed", "project.webhook_secret_rotated", "project.routing_changed"],
    params: IdParam,
    body: ProjectUpdate,
    response: Project,
    handler: ({ ctx, params, body }) => updateProject(ctx, params.id, body),
  }),
  defineRoute({
    method: "POST",
    path: "/projects/{id}/rotate-webhook-secret",
    operationId: "rotateProjectWebhookSecret",
    summary: "Rotate the webhook signing secret (the previous one keeps signing for 24 h)",
    tag,
    scope: "projects:write",
    audit: ["project.webhook_secret_rotated"],
    params: IdParam,
    response: ProjectWebhookSecret,
    handler: ({ ctx, params }) => rotateWebhookSecret(ctx, params.id),
  }),
];
