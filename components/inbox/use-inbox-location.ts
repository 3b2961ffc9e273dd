"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { inboxSearch, readInboxLocation, type InboxLocation } from "@/lib/client/inbox-views";

/**
 * The inbox's state in the URL: the view, filters, search and open conversation. `go` pushes a
 * history entry (back returns to the previous view); `replace` is for typing in the search box, which
 * would otherwise leave one entry per keystroke.
 */
export function useInboxLocation() {
  const pathname = usePathname();
  const router = useRouter();
  const params = useSearchParams();
  const location = useMemo(() => readInboxLocation(params), [params]);

  const hrefFor = useCallback((patch: Partial<InboxLocation>) => `${pathname}${inboxSearch({ ...location, ...patch })}`, [pathname, location]);
  const go = useCallback((patch: Partial<InboxLocation>) => router.push(hrefFor(patch), { scroll: false }), [router, hrefFor]);
  const replace = useCallback((patch: Partial<InboxLocation>) => router.replace(hrefFor(patch), { scroll: false }), [router, hrefFor]);

  return { location, hrefFor, go, replace };
}
