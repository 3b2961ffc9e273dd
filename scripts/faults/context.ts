/** What every scenario gets: the running stack, the private services and the webhook receiver. */
import type { BenchReceiver } from "../../bench/receiver";
import type { PrivatePostgres, PrivateRedis } from "./services";
import type { Stack } from "./stack";

export interface Delivered {
  at: number;
  event: string;
  id: string | null;
  body: unknown;
}

export interface FaultContext {
  stack: Stack;
  pg: PrivatePostgres;
  redis: PrivateRedis;
  /** Answers 200 at once; set as the project's webhook_url unless a scenario says otherwise. */
  fast: BenchReceiver;
  /** message.received bodies the fast receiver got (bounded), for checks on their content. */
  received: Delivered[];
  /** Prefix of every text this run sends (the receivers' token prefix). */
  token: string;
  log: (m: string) => void;
}
