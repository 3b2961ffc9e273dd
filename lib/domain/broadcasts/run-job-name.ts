/** The sender job's name and payload, apart from its definition so lifecycle.ts can queue it without importing the sender. */
export const BROADCAST_RUN_JOB = "broadcasts.run";

export interface BroadcastRunJob {
  broadcastId: string;
  generation: number;
}
