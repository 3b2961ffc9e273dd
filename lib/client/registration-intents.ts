"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { RegistrationIntentCreateRequest as CreateSchema, RegistrationIntentWire as RegistrationIntent } from "@/lib/api/schemas/registration-intents";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Registration links of a project (docs/spec/decisions.md "Registration intents"): the recent ones and
 * minting one. The shapes are the API's own (lib/api/schemas/registration-intents.ts), types only.
 */
export type { RegistrationIntent };
export type RegistrationIntentCreateRequest = z.input<typeof CreateSchema>;

/** How often the recent list asks again while a link waits for its customer's message. */
const PENDING_POLL_MS = 3_000;
const RECENT = 5;

const registrationIntentKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "registration-intents"),
  recent: (projectId: string) => projectQueryKey(projectId, "registration-intents", "recent"),
};

/** GET /registration-intents?limit=5, newest first; polls while one is PENDING (it completes when the customer writes). */
export function useRecentRegistrationIntents(projectId: string) {
  return useQuery({
    queryKey: registrationIntentKeys.recent(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<RegistrationIntent>>(projectId, `/registration-intents?limit=${RECENT}`, { signal }),
    refetchInterval: (query) => (query.state.data?.data.some((intent) => intent.status === "PENDING") ? PENDING_POLL_MS : false),
  });
}

/** POST /registration-intents: 200 with the PENDING intent; 400 invalid_request (issues by field). */
export function useCreateRegistrationIntent(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RegistrationIntentCreateRequest) => projectApi<RegistrationIntent>(projectId, "/registration-intents", { method: "POST", body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: registrationIntentKeys.all(projectId) }),
  });
}
