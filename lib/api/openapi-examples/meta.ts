import type { OperationExamples } from "./types";
import { KEY_ID, ORG_ID, PROJECT_ID } from "./fixtures";

export const metaExamples: Record<string, OperationExamples> = {
  getOpenApiDocument: {
    response: {
      document: {
        summary: "The document (abbreviated)",
        value: {
          openapi: "3.1.0",
          info: { title: "svc API", version: "2026-06-18" },
          servers: [{ url: "/api/v1", description: "This server" }],
          paths: { "/limits": { get: { operationId: "getLimits", summary: "This key's rate limit and monthly quota" } } },
        },
      },
    },
  },
  getIdentity: {
    response: {
      identity: {
        summary: "A full-access secret key",
        value: {
          object: "identity",
          organization: { id: ORG_ID, name: "Acme" },
          project: { id: PROJECT_ID, name: "Support bot" },
          api_key: { id: KEY_ID, name: "Production backend", prefix: "svc_live_lWU", display: "svc_live_lWUT…a6Kq", scopes: ["*"] },
          plan: "free",
          api_version: "2026-06-18",
        },
      },
    },
  },
  getLimits: {
    response: {
      free: {
        summary: "The free plan",
        value: {
          object: "public_api_limits",
          rate_limit: { requests: 600, window_seconds: 60, scope: "api_key" },
          monthly_quota: { requests: 100000, scope: "api_key", period: "2026-06" },
        },
      },
    },
  },
};
