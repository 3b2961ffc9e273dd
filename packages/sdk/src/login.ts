import type { Client } from "openapi-fetch";
import type { paths as CliLoginPaths } from "./cli-login-schema.js";
import { createTransport, type TransportOptions } from "./client.js";

export type { CliLoginPaths };

/** A typed client of the server's CLI login (`/api/cli`): the device-code flow and logout. */
export type CliLoginClient = Client<CliLoginPaths, "application/json">;

export interface CliLoginClientOptions extends Omit<TransportOptions, "baseUrl"> {
  /** The server's root, like http://localhost:3000 (not its /api/v1). */
  serverUrl: string;
  /** Only logout needs one: the device-code calls are made before there is a key. */
  apiKey?: string;
}

/**
 * The device-code login of `svc login`, for any tool that wants a key the same way: POST
 * /device-codes, show `verification_url` and `user_code`, then poll POST /device-codes/token every
 * `interval` seconds (428 while waiting, 429 slow down, 403 denied, 410 expired) until it answers the
 * key once. These operations are not part of /api/v1 and its OpenAPI document; their types are
 * generated from the same route table (scripts/sdk-codegen.ts). No Idempotency-Key is added: the
 * routes do not take one, and a poll is safe to repeat anyway.
 */
export function createCliLoginClient(options: CliLoginClientOptions): CliLoginClient {
  return createTransport<CliLoginPaths>(options, {
    baseUrl: `${options.serverUrl.replace(/\/+$/, "")}/api/cli`,
    headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
  });
}
