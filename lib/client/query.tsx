"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { isApiError } from "./api";

/**
 * Query keys used across the dashboard, so invalidation after a mutation hits every view of the data.
 * Project data lives under ["project", projectId, ...]: e.g. projectQueryKey(id, "keys").
 */
export const queryKeys = {
  me: ["me"] as const,
  setup: ["setup"] as const,
  invitation: (token: string) => ["invitation", token] as const,
};

export function projectQueryKey(projectId: string, ...parts: Array<string | number | Record<string, unknown> | undefined>) {
  return ["project", projectId, ...parts] as const;
}

/** A 4xx will not change by asking again (and a 429 should wait for the user); 5xx and network errors get two retries. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: shouldRetry, refetchOnWindowFocus: true },
      // Writes are not idempotent by default: never repeat one behind the operator's back.
      mutations: { retry: false },
    },
  });
}

export function QueryProvider({ children }: { children: ReactNode }) {
  // One client per browser tab (useState keeps it across re-renders, never shared between requests on the server).
  const [client] = useState(makeQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
