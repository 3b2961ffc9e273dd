"use client";

import type { ReactNode } from "react";
import { ToastProvider } from "@/components/ui/toast";
import { QueryProvider } from "@/lib/client/query";

/** Browser-side context every page may use: react-query's cache and toasts. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryProvider>
      <ToastProvider>{children}</ToastProvider>
    </QueryProvider>
  );
}
