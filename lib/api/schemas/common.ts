import { z } from "@/lib/api/zod";

export const ErrorBody = z
  .object({
    error: z.string().openapi({ description: "Machine-readable error code." }),
    message: z.string(),
    issues: z.record(z.string(), z.array(z.string())).optional().openapi({ description: "invalid_request: messages keyed by dotted field path." }),
    required_scope: z.string().optional().openapi({ description: "insufficient_scope: the scope this operation needs." }),
    request_id: z.string().optional(),
  })
  .catchall(z.unknown())
  .openapi("Error");

export type ErrorBodyWire = z.infer<typeof ErrorBody>;

export const Timestamp = z.string().openapi({ format: "date-time", example: "2026-06-18T12:00:00.000Z" });

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: "Page size, 1 to 100.", example: 20 }),
  starting_after: z.string().min(1).max(200).optional().openapi({ description: "Id of the last item of the previous page." }),
});

export function listOf<T extends z.ZodTypeAny>(item: T, name: string) {
  return z.object({ object: z.literal("list"), data: z.array(item), has_more: z.boolean() }).openapi(name);
}

/** A list response (listOf) whose items are T: the one list envelope type, for the browser too (`import type`). */
export type ListEnvelope<T> = z.infer<ReturnType<typeof listOf<z.ZodType<T>>>>;

export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "id", in: "path" } }),
});
