import type { Metadata } from "next";
import { connection } from "next/server";
import { ApiReference } from "@/components/api-reference/api-reference";

export const metadata: Metadata = {
  title: "API reference",
  description: "Every svc API operation: parameters, bodies, examples, errors and scopes.",
};

/** Public like /api/v1/openapi.json itself. proxy.ts gives it a strict CSP with a per-request nonce. */
export default async function ApiReferencePage() {
  // The nonce is per request, so the page renders per request (a prerendered page could not carry it).
  await connection();
  return <ApiReference />;
}
