import { and, eq } from "drizzle-orm";
import { contacts } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { notFound } from "@/lib/errors";
import type { FunctionEventType } from "@/lib/shared/functions";
import { assertArgumentsMatch } from "./input-schema";
import { assertRunnable, loadRunnable, runFunction, type FunctionRunOutcome } from "./run";

/**
 * POST /functions/{id}/test and /invoke (decisions.md "Hosted functions"): the event each one builds,
 * then one run. The answer carries the run's result, error, logs and measurements.
 */

export interface EventContact {
  id: string | null;
  phone: string | null;
  name: string | null;
}

function answer<O extends "function_test" | "function_invoke">(object: O, functionId: string, run: FunctionRunOutcome) {
  return {
    object,
    function_id: functionId,
    invocation_id: run.invocation_id,
    version_id: run.version_id,
    status: run.status,
    result: run.result ?? null,
    error: run.error,
    logs: run.logs,
    cpu_ms: Math.round(run.cpu_ms),
    sub_requests: run.sub_requests,
    duration_ms: Math.round(run.duration_ms),
  };
}

export async function testFunction(
  ctx: Ctx,
  idOrSlug: string,
  input: { text?: string | undefined; contact?: { id: string; phone: string; name?: string | undefined } | undefined },
) {
  const runnable = await loadRunnable(ctx, idOrSlug);
  const fn = runnable.fn;
  const contact: EventContact | null = input.contact ? { id: input.contact.id, phone: input.contact.phone, name: input.contact.name ?? null } : null;
  const event = { type: "message", trigger: fn.triggerType, text: input.text ?? "", contact, conversation_id: null, channel_id: null, variables: {} };
  return answer("function_test", fn.id, await runFunction(ctx, runnable, { eventType: "test", event }));
}

/** contact_id must be the project's contact (404 otherwise); contact_phone needs no contact row. */
async function invokeContact(ctx: Ctx, input: { contact_id?: string | undefined; contact_phone?: string | undefined }): Promise<EventContact | null> {
  if (input.contact_id) {
    const [row] = await ctx.db
      .select({ id: contacts.id, phone: contacts.phone, name: contacts.name })
      .from(contacts)
      .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, input.contact_id)));
    if (!row) throw notFound("contact", input.contact_id);
    return row;
  }
  if (input.contact_phone) {
    const phone = input.contact_phone.startsWith("+") ? input.contact_phone : `+${input.contact_phone}`;
    const [row] = await ctx.db
      .select({ id: contacts.id, phone: contacts.phone, name: contacts.name })
      .from(contacts)
      .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.phone, phone)))
      .limit(1);
    return row ?? { id: null, phone, name: null };
  }
  return null;
}

/** `eventType`: invoke, or mcp_tool when an MCP client called it (decisions.md "Hosted functions": invocation log). */
export async function invokeFunction(
  ctx: Ctx,
  idOrSlug: string,
  input: { arguments?: Record<string, unknown> | undefined; contact_id?: string | undefined; contact_phone?: string | undefined },
  eventType: Extract<FunctionEventType, "invoke" | "mcp_tool"> = "invoke",
) {
  const runnable = await loadRunnable(ctx, idOrSlug);
  const fn = runnable.fn;
  assertRunnable(fn);
  const args = input.arguments ?? {};
  if (fn.inputSchema) assertArgumentsMatch(fn.inputSchema, args);
  const contact = await invokeContact(ctx, input);
  const event = { type: "invoke", arguments: args, contact };
  return answer("function_invoke", fn.id, await runFunction(ctx, runnable, { eventType, event }));
}
