"use client";

import { Badge, Button, TBody, TD, TH, THead, TR, Table, TableContainer, Time, cn } from "@/components/ui";
import type { ApiKey } from "@/lib/client/keys";
import { ScopeSummary } from "./scope-summary";

/** Active keys first (newest first, as the server sends them), revoked ones after, greyed. */
export function sortKeys(keys: ApiKey[]): ApiKey[] {
  return [...keys.filter((key) => !key.revoked_at), ...keys.filter((key) => key.revoked_at)];
}

export function keyLabel(key: ApiKey): string {
  return key.name ?? (key.kind === "secret" ? "Unnamed secret key" : "Unnamed publishable key");
}

export interface KeysListProps {
  keys: ApiKey[];
  canManage: boolean;
  onRevoke: (key: ApiKey) => void;
}

/** A table from tablet width up; stacked cards on phones, where seven columns cannot fit. */
export function KeysList(props: KeysListProps) {
  return (
    <>
      <KeysTable {...props} className="hidden md:block" />
      <KeyCards {...props} className="md:hidden" />
    </>
  );
}

function KeysTable({ keys, canManage, onRevoke, className }: KeysListProps & { className?: string }) {
  return (
    <TableContainer label="API keys" className={cn("relative", className)}>
      <Table caption="API keys of this project">
        <THead>
          <tr>
            <TH>Name</TH>
            <TH>Type</TH>
            <TH>Permissions</TH>
            <TH>Last used</TH>
            <TH className="hidden md:table-cell">Created</TH>
            <TH>Status</TH>
            {canManage && (
              <TH>
                <span className="sr-only">Actions</span>
              </TH>
            )}
          </tr>
        </THead>
        <TBody>
          {sortKeys(keys).map((key) => {
            const revoked = key.revoked_at !== null;
            const label = keyLabel(key);
            return (
              <TR key={key.id} className={cn(revoked && "bg-slate-50/60 text-slate-500 [&_td]:text-slate-500")} data-key-id={key.id}>
                <TD className="align-top">
                  <div className={cn("font-medium", revoked ? "text-slate-500" : "text-slate-900")}>{label}</div>
                  <code className="font-mono text-[12px] text-slate-500">{key.display}</code>
                </TD>
                <TD className="align-top">
                  <Badge tone={key.kind === "secret" ? "neutral" : "info"}>{key.kind === "secret" ? "Secret" : "Publishable"}</Badge>
                </TD>
                <TD className="max-w-64 align-top whitespace-normal">
                  {key.kind === "publishable" ? <Origins origins={key.allowed_origins} /> : <ScopeSummary scopes={key.scopes} />}
                </TD>
                <TD className="align-top whitespace-nowrap">
                  <Time value={key.last_used_at} fallback="Never" />
                </TD>
                <TD className="hidden align-top whitespace-nowrap md:table-cell">
                  <Time value={key.created_at} format="absolute" />
                </TD>
                <TD className="align-top">
                  {revoked ? (
                    <span title={key.revoked_at ?? undefined}>
                      <Badge tone="neutral">Revoked</Badge>
                    </span>
                  ) : (
                    <Badge tone="success" dot>
                      Active
                    </Badge>
                  )}
                </TD>
                {canManage && (
                  <TD className="text-right align-top">
                    {!revoked && (
                      <Button size="sm" variant="secondary" aria-label={`Revoke ${label}`} onClick={() => onRevoke(key)}>
                        Revoke
                      </Button>
                    )}
                  </TD>
                )}
              </TR>
            );
          })}
        </TBody>
      </Table>
    </TableContainer>
  );
}

function KeyCards({ keys, canManage, onRevoke, className }: KeysListProps & { className?: string }) {
  return (
    <ul aria-label="API keys" className={cn("divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200", className)}>
      {sortKeys(keys).map((key) => {
        const revoked = key.revoked_at !== null;
        const label = keyLabel(key);
        return (
          <li key={key.id} className={cn("space-y-2 px-4 py-3.5", revoked && "bg-slate-50/60 opacity-70")}>
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <div className="truncate text-sm font-medium text-slate-900">{label}</div>
                <code className="font-mono text-[12px] text-slate-500">{key.display}</code>
              </div>
              {revoked ? (
                <Badge tone="neutral">Revoked</Badge>
              ) : (
                <Badge tone="success" dot>
                  Active
                </Badge>
              )}
            </div>
            <div className="flex flex-wrap items-center gap-2 text-[13px] text-slate-600">
              <Badge tone={key.kind === "secret" ? "neutral" : "info"}>{key.kind === "secret" ? "Secret" : "Publishable"}</Badge>
              {key.kind === "publishable" ? <Origins origins={key.allowed_origins} /> : <ScopeSummary scopes={key.scopes} />}
            </div>
            <div className="flex items-center justify-between gap-3">
              <p className="text-xs text-slate-500">
                Last used <Time value={key.last_used_at} fallback="never" /> · created <Time value={key.created_at} format="absolute" />
              </p>
              {canManage && !revoked && (
                <Button size="sm" variant="secondary" aria-label={`Revoke ${label}`} onClick={() => onRevoke(key)}>
                  Revoke
                </Button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function Origins({ origins }: { origins: string[] }) {
  if (origins.length === 0) return <span className="text-[13px] text-slate-500">No origins yet</span>;
  return (
    <ul className="space-y-0.5 font-mono text-[12px]">
      {origins.map((origin) => (
        <li key={origin} className="truncate" title={origin}>
          {origin}
        </li>
      ))}
    </ul>
  );
}
