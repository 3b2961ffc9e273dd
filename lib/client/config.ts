"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  ConfigApply as ApplySchema,
  ConfigDiff as DiffSchema,
  ConfigDiffItemWire as ConfigDiffItem,
  ConfigIssueWire as ConfigIssue,
  ConfigValidation as ValidationSchema,
} from "@/lib/api/schemas/config";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Config-as-code (docs/spec/decisions.md "Config-as-code", service-spec.md "Config"): the project
 * exported as one document, its JSON Schema, and a document checked, compared and applied. The
 * shapes are the API's own (lib/api/schemas/config.ts), types only.
 */
export type { ConfigDiffItem, ConfigIssue };
export type ConfigValidation = z.infer<typeof ValidationSchema>;
export type ConfigDiff = z.infer<typeof DiffSchema>;
export type ConfigApply = z.infer<typeof ApplySchema>;

/** The document as sent: any JSON object; the server is its judge (mistakes come back as issues). */
export type ConfigDocument = Record<string, unknown>;

export type ConfigDiffAction = ConfigDiffItem["action"];
export type ConfigDiffType = ConfigDiffItem["type"];
export const CONFIG_DIFF_ACTIONS = ["create", "update", "delete", "unchanged"] as const satisfies readonly ConfigDiffAction[];

const configKey = (projectId: string) => projectQueryKey(projectId, "config");

/** GET /config: the project as a document (always fresh: it is what an apply compares against). */
export function useConfigExport(projectId: string) {
  return useQuery({
    queryKey: configKey(projectId),
    queryFn: ({ signal }) => projectApi<ConfigDocument>(projectId, "/config", { signal }),
    staleTime: 0,
  });
}

/** GET /config/schema.json: the document's JSON Schema, for the paste editor's squiggles. */
export function useConfigSchema(projectId: string) {
  return useQuery({
    queryKey: projectQueryKey(projectId, "config-schema"),
    queryFn: ({ signal }) => projectApi<Record<string, unknown>>(projectId, "/config/schema.json", { signal }),
    staleTime: Infinity,
  });
}

/** POST /config/diff: what applying the document would change, and its issues. Writes nothing. */
export function useConfigDiff(projectId: string) {
  return useMutation({
    mutationFn: (document: unknown) => projectApi<ConfigDiff>(projectId, "/config/diff", { method: "POST", body: document }),
  });
}

/**
 * POST /config/apply: one transaction; an error issue is a 422 config_invalid (the issues in the
 * error body) and nothing is written. Flows, automations and the project's settings may all change:
 * every view of the project reads again.
 */
export function useConfigApply(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (document: unknown) => projectApi<ConfigApply>(projectId, "/config/apply", { method: "POST", body: document }),
    onSuccess: () => void client.invalidateQueries({ queryKey: projectQueryKey(projectId) }),
  });
}
