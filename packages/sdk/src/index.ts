/**
 * @svc/sdk: a typed client for the svc API. Types are generated from the served OpenAPI document
 * (./schema.ts, `npm run sdk:generate`); requests go through openapi-fetch with idempotency keys,
 * retries on 429/503 honoring Retry-After, and pagination helpers.
 */
export { createSvcClient, idempotencyKeys, DEFAULT_BASE_URL, type SvcClient, type SvcClientOptions, type TransportOptions } from "./client.js";
export { createCliLoginClient, type CliLoginClient, type CliLoginClientOptions, type CliLoginPaths } from "./login.js";
export { SvcApiError, unwrap, type ErrorBody } from "./errors.js";
export { paginate, listAll, type ListPath, type ListItem, type ListInit } from "./paginate.js";
export { retryAfterMs, backoffMs, RETRY_STATUSES, type RetryOptions } from "./retry.js";
export type { paths, components, operations } from "./schema.js";

import type { components } from "./schema.js";
/** A named schema of the API, e.g. `Schema<"Message">` or `Schema<"MessageSendRequest">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];
