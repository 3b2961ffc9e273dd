import { performance } from "node:perf_hooks";
import { ProviderError, type ProviderPort } from "@/lib/ports/provider/types";
import type { SandboxPort } from "@/lib/ports/sandbox/types";
import type { MetricsPort, ProviderSendOutcome } from "@/lib/ports/metrics";

/**
 * The provider and sandbox ports as every caller sees them, with their outcomes counted (README
 * "Health and metrics"): wrapped once in the composition root, so each send (API, broadcasts,
 * agents, automations) and each function run (invoke, test, steps, tools) is measured in one place.
 */

function sendOutcome(error: unknown): ProviderSendOutcome {
  if (!ProviderError.is(error)) return "error";
  return error.retryable ? "retryable" : "refused";
}

export function measuredProvider(provider: ProviderPort, metrics: MetricsPort): ProviderPort {
  return {
    async send(channel, to, message) {
      const started = performance.now();
      try {
        const sent = await provider.send(channel, to, message);
        metrics.providerSend(channel.platform, "accepted", (performance.now() - started) / 1000);
        return sent;
      } catch (error) {
        metrics.providerSend(channel.platform, sendOutcome(error), (performance.now() - started) / 1000);
        throw error;
      }
    },
    flows: provider.flows,
    templates: provider.templates,
    accounts: provider.accounts,
    agents: provider.agents,
  };
}

/** The sandbox's limit codes (lib/ports/sandbox/types.ts SandboxErrorCode) that count as "a limit was hit". */
const LIMIT_CODES = new Set([
  "cpu_limit_exceeded",
  "wall_time_exceeded",
  "memory_limit_exceeded",
  "sub_request_limit_exceeded",
  "result_too_large",
  "log_limit_exceeded",
]);

export function measuredSandbox(sandbox: SandboxPort, metrics: MetricsPort): SandboxPort {
  return {
    check: (code, limits) => sandbox.check(code, limits),
    async run(request, bridge) {
      const outcome = await sandbox.run(request, bridge);
      const code = outcome.error ? outcome.error.split(":", 1)[0]! : null;
      metrics.sandboxRun(outcome.status, code && LIMIT_CODES.has(code) ? code : null, outcome.duration_ms / 1000);
      return outcome;
    },
    close: () => sandbox.close(),
  };
}
