import Link from "next/link";
import type { ReactNode } from "react";
import { Wordmark } from "@/components/shell/wordmark";

/** Sign-in, first-run setup and invitations: one calm centred column with the wordmark above the card. */
export default function AuthLayout({ children }: { children: ReactNode }) {
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
      <main className="w-full max-w-[400px]">{children}</main>
    </div>
  );
}
