/** The endpoint the provider calls for a DATA_EXCHANGE flow (docs/spec/decisions.md "Flows"). */
export function flowEndpointUri(publicUrl: string, flowId: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/providers/platform-a/flows/${flowId}/endpoint`;
}
