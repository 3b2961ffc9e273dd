import { PLATFORMS, platformName, type PlatformCode } from "@/lib/shared/platforms";
import { cn } from "./cn";

/**
 * A platform as a business user knows it, the API's code beside it in small mono (what a developer
 * greps for); the one-line description is the tooltip. lib/shared/platforms.ts is the one source.
 */
export function PlatformName({ code, className, showCode = true }: { code: PlatformCode; className?: string; showCode?: boolean }) {
  const info = PLATFORMS[code];
  return (
    <span className={cn("inline-flex items-baseline gap-1.5 whitespace-nowrap", className)} title={info?.description} data-platform={code}>
      <span className="font-medium text-slate-700">{platformName(code)}</span>
      {info?.beta && <span className="text-[11px] font-medium text-slate-600">beta</span>}
      {showCode && <span className="font-mono text-[11px] text-slate-600">{code}</span>}
    </span>
  );
}
