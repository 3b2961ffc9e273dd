"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/** API keys of a project (lib/dashboard/routes/keys.ts). The list never carries a key's value. */

export type KeyKind = "secret" | "publishable";

export interface ApiKey {
  object: "api_key";
  id: string;
  kind: KeyKind;
  name: string | null;
  prefix: string;
  /** Recognisable but unusable: `svc_live_ab12…9xYz`. */
  display: string;
  scopes: string[];
  allowed_origins: string[];
  last_used_at: string | null;
  created_at: string;
  revoked_at: string | null;
  created_by_user_id: string | null;
}

/** The create response: the only place the full value ever appears. */
export interface CreatedApiKey extends ApiKey {
  value: string;
}

export interface KeyCreate {
  kind: KeyKind;
  name: string;
  scopes?: string[];
  allowed_origins?: string[];
}

const keysKey = (projectId: string) => projectQueryKey(projectId, "keys");

export function useKeys(projectId: string) {
  return useQuery({
    queryKey: keysKey(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<ApiKey>>(projectId, "/keys", { signal }),
    select: (list) => list.data,
  });
}

/**
 * Creates a key. The list is refetched rather than fed the response, so the value lives only in the
 * mutation's result, which the caller resets once the operator has copied it.
 */
export function useCreateKey(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    // Not kept in the mutation cache after the dialog lets go of it: the response holds a one-time secret.
    gcTime: 0,
    mutationFn: (input: KeyCreate) => projectApi<CreatedApiKey>(projectId, "/keys", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: keysKey(projectId) }),
  });
}

export function useRevokeKey(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => projectApi<ApiKey>(projectId, `/keys/${encodeURIComponent(keyId)}/revoke`, { method: "POST" }),
    onSuccess: (revoked) => {
      client.setQueryData<ListEnvelope<ApiKey>>(keysKey(projectId), (list) =>
        list ? { ...list, data: list.data.map((key) => (key.id === revoked.id ? revoked : key)) } : list,
      );
      void client.invalidateQueries({ queryKey: keysKey(projectId) });
    },
  });
}
