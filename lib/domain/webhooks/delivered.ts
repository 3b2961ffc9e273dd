import { ReactionList } from "@/lib/domain/shared/reactions";

/** An event reached the project's webhook (a 2xx answer), right after the delivery was marked succeeded. */
export interface EventDelivered {
  eventId: string;
  eventType: string;
}

export const eventDelivered = new ReactionList<EventDelivered>("event delivered");
