"use client";

import { Badge, Time, type BadgeTone } from "@/components/ui";
import type { RegistrationIntent } from "@/lib/client/registration-intents";

const TONE: Record<RegistrationIntent["status"], BadgeTone> = { PENDING: "info", COMPLETED: "success", EXPIRED: "neutral" };

/** The newest links and where each stands (the list polls while one is PENDING). */
export function RegistrationList({ intents }: { intents: RegistrationIntent[] }) {
  if (intents.length === 0) return <p className="text-sm text-slate-500">No registration links yet.</p>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Recent registration links">
      {intents.map((intent) => (
        <li key={intent.id} className="flex items-center justify-between gap-3 py-2" data-testid="registration-intent-row">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-slate-800">{intent.customer_reference}</p>
            <p className="text-xs text-slate-500">
              {intent.status === "COMPLETED" ? (
                <>
                  Registered <Time value={intent.completed_at} />
                </>
              ) : (
                <>
                  Created <Time value={intent.created_at} /> · {intent.mode}
                </>
              )}
            </p>
          </div>
          <Badge tone={TONE[intent.status]} dot>
            {intent.status}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
