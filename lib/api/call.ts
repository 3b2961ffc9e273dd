import type { Runtime } from "@/lib/server/runtime";
import type { OperatorPrincipal } from "./principal";

/** One request on its way through defineRoute's steps; `headers` collects the response headers as they are decided. */
export interface Call {
  request: Request;
  pathParams: Record<string, string>;
  runtime: Runtime;
  operator: OperatorPrincipal | undefined;
  now: Date;
  headers: Record<string, string>;
}
