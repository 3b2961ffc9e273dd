import { ALL_SCOPES } from "@/components/keys/scope-picker";
import { ScopeChips } from "./scope-chips";

/** The scopes the new key will carry, spelled out: what the operator grants is exactly this list. */
export function GrantedScopes({ scopes, host }: { scopes: readonly string[]; host: string }) {
  const full = scopes.includes(ALL_SCOPES);
  return (
    <div className="rounded-md bg-indigo-50/60 px-3 py-2.5 text-sm ring-1 ring-indigo-600/15 ring-inset" data-testid="granted-scopes" aria-live="polite">
      <p className="text-slate-700">
        The CLI on <span className="font-mono text-[13px] font-medium text-slate-900">{host}</span> gets a new secret key with{" "}
        {full ? (
          <span className="font-medium text-slate-900">full access (every scope, now and later)</span>
        ) : scopes.length === 0 ? (
          <span className="font-medium text-red-700">no scopes yet: pick at least one</span>
        ) : (
          <>exactly {scopes.length === 1 ? "this scope" : `these ${scopes.length} scopes`}, and nothing else:</>
        )}
      </p>
      {!full && scopes.length > 0 && <ScopeChips scopes={scopes} className="mt-1.5 flex flex-wrap gap-1.5" />}
    </div>
  );
}
