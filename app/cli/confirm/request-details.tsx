import type { ReactNode } from "react";
import { Time, formatDateTime } from "@/components/ui";
import type { CliCode } from "@/lib/client/cli-login";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3 px-3 py-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="truncate text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * Who is asking: the code to compare with the terminal, the host name the CLI sent and the address
 * its request came from (the operator's check that this login is theirs), and when the code lapses.
 */
export function RequestDetails({ code }: { code: CliCode }) {
  return (
    <div className="space-y-3">
      <div className="rounded-lg bg-slate-50 px-4 py-3 text-center ring-1 ring-slate-200 ring-inset">
        <p className="text-xs text-slate-500">Check that your terminal shows this code</p>
        <p className="mt-1 font-mono text-2xl font-semibold tracking-[0.2em] text-slate-900" data-testid="cli-user-code">
          {code.user_code}
        </p>
      </div>
      <dl className="divide-y divide-slate-100 rounded-md text-sm ring-1 ring-slate-200 ring-inset" data-testid="cli-request-details">
        <Row label="Requested by">
          <span className="font-mono text-[13px]">{code.client_host}</span>
        </Row>
        <Row label="From address">
          <span className="font-mono text-[13px]">{code.request_ip ?? "unknown"}</span>
        </Row>
        <Row label="Code expires">
          <Time value={code.expires_at} /> <span className="font-normal text-slate-500">({formatDateTime(new Date(code.expires_at))})</span>
        </Row>
      </dl>
    </div>
  );
}
