"use client";

import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorState } from "./error-state";
import { SkeletonGroup, SkeletonRows } from "./skeleton";

export interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  /** What is loading, read to screen readers: "Loading submissions". */
  loadingLabel: string;
  /** The placeholder shaped like the content; default a few skeleton rows. */
  skeleton?: ReactNode;
  /** Says what failed in plain words ("Couldn't load submissions"); the error's own message and a retry follow. */
  errorTitle: string;
  /** Smaller error, for use inside a Card. */
  compact?: boolean;
  /** The empty state, shown when `isEmpty(data)`: what will appear here and how to get the first one. */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/**
 * The three states every query-backed view has before its content (loading, failed with a retry,
 * empty), written once so a list page only writes its content.
 */
export function QueryState<T>({ query, loadingLabel, skeleton, errorTitle, compact, empty, isEmpty, children }: QueryStateProps<T>) {
  if (query.isPending) return <SkeletonGroup label={loadingLabel}>{skeleton ?? <SkeletonRows rows={3} columns={4} />}</SkeletonGroup>;
  if (query.isError) {
    return <ErrorState compact={compact} error={query.error} title={errorTitle} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (empty !== undefined && isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
