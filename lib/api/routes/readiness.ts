import { defineRoute } from "@/lib/api/route";
import { IdParam } from "@/lib/api/schemas/common";
import { ProjectReadiness } from "@/lib/api/schemas/readiness";
import { getProjectReadiness } from "@/lib/domain/readiness/project";

const tag = "Projects";

const description =
  "Whether the project can be tested on the shared sandbox and can go live: overall_status, each capability's status, and every problem as an issue with next steps (most important first). Channels are serialized as GET /channels/{id} serializes them.";

/** docs/spec/decisions.md "Paths the spec leaves open": readiness, scope projects:read. */
export const readinessRoutes = [
  defineRoute({
    method: "GET",
    path: "/readiness",
    operationId: "getReadiness",
    summary: "Readiness of the key's project",
    description,
    tag,
    scope: "projects:read",
    response: ProjectReadiness,
    handler: ({ ctx }) => getProjectReadiness(ctx, ctx.project.id),
  }),
  defineRoute({
    method: "GET",
    path: "/projects/{id}/readiness",
    operationId: "getProjectReadiness",
    summary: "Readiness of a project (an API key can read its own project's)",
    description,
    tag,
    scope: "projects:read",
    params: IdParam,
    response: ProjectReadiness,
    handler: ({ ctx, params }) => getProjectReadiness(ctx, params.id),
  }),
];
