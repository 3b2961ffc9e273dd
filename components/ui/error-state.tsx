"use client";

import type { ReactNode } from "react";
import { isApiError } from "@/lib/client/api";
import { Button } from "./button";
import { cn } from "./cn";
import { CopyButton } from "./copy-button";
import { AlertIcon, RefreshIcon } from "./icons";

export interface ErrorStateProps {
  /** Whatever the query threw; an ApiError shows its message, code and request id. */
  error: unknown;
  title?: ReactNode;
  /** Shows a "Try again" button (e.g. the query's refetch). */
  onRetry?: () => void;
  retrying?: boolean;
  /** Smaller, without the dashed frame, for use inside a Card. */
  compact?: boolean;
  className?: string;
}

function describe(error: unknown): { title: string; message: string; code?: string; requestId?: string } {
  if (isApiError(error)) {
    const title =
      error.status === 0
        ? "Can't reach svc"
        : error.status === 403
          ? "Your role can't do this"
          : error.status === 404
            ? "Not found"
            : error.status >= 500
              ? "Something went wrong on our side"
              : "That didn't work";
    return { title, message: error.message, code: error.status === 0 ? undefined : error.code, requestId: error.requestId };
  }
  if (error instanceof Error) return { title: "Something went wrong", message: error.message };
  return { title: "Something went wrong", message: "An unexpected error occurred." };
}

/** The failed state of a view: what went wrong, the request id to quote, and a retry. */
export function ErrorState({ error, title, onRetry, retrying, compact, className }: ErrorStateProps) {
  const details = describe(error);
  return (
    <div
      role="alert"
      className={cn(
        "flex flex-col items-center text-center",
        compact ? "px-4 py-8" : "rounded-lg border border-dashed border-red-200 bg-red-50/30 px-6 py-12",
        className,
      )}
    >
      <div className="mb-4 flex size-10 items-center justify-center rounded-lg bg-red-50 text-red-600 ring-1 ring-red-600/15">
        <AlertIcon size={20} />
      </div>
      <h2 className="text-sm font-semibold text-slate-900">{title ?? details.title}</h2>
      <p className="mt-1 max-w-md text-sm text-slate-600">{details.message}</p>
      {(details.code || details.requestId) && (
        <dl className="mt-3 flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-xs text-slate-500">
          {details.code && (
            <div className="flex gap-1">
              <dt>Code</dt>
              <dd className="font-mono text-slate-700">{details.code}</dd>
            </div>
          )}
          {details.requestId && (
            <div className="flex min-w-0 items-center gap-1">
              <dt className="whitespace-nowrap">Request ID</dt>
              <dd className="font-mono break-all text-slate-700">{details.requestId}</dd>
              <CopyButton value={details.requestId} label="request ID" size="xs" />
            </div>
          )}
        </dl>
      )}
      {onRetry && (
        <Button className="mt-5" onClick={onRetry} loading={retrying} icon={<RefreshIcon />}>
          Try again
        </Button>
      )}
    </div>
  );
}
