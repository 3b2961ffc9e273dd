import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { Wordmark } from "./wordmark";

/**
 * The pages outside any project (sign-in, setup, invitations, the CLI login confirmation): one calm
 * centred column with the wordmark above it. `wide` for a page with more than a short form on it.
 */
export function CenteredFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="relative flex min-h-dvh flex-col items-center px-4 py-10 sm:justify-center sm:py-16">
      {/* A faint indigo wash at the top: depth without decoration. */}
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-80 bg-[radial-gradient(60%_100%_at_50%_0%,var(--color-indigo-100),transparent)] opacity-70"
      />
      <Link href="/" className="mb-8 rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600" aria-label="svc home">
        <Wordmark size="lg" />
      </Link>
      <main className={cn("w-full", wide ? "max-w-[560px]" : "max-w-[400px]")}>{children}</main>
    </div>
  );
}
