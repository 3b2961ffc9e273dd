import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ContactRow } from "@/lib/domain/contacts/identity";
import type { ConversationRow } from "@/lib/domain/conversations";
import type { ArrivalFacts } from "@/lib/domain/messages/arrival";
import { ClaimList, JobAskList, ReactionList } from "@/lib/domain/shared/reactions";
import type { NormalizedInboundMessage } from "./types";

/**
 * What ingest tells the features (ARCHITECTURE.md, "Reactions"): each list runs inside the provider
 * item's transaction, so what a feature writes commits with the message or not at all. The features
 * and their order are installed by lib/domain/reactions.ts; ingest imports none of them.
 */

/** A customer's text arriving, before anything is stored: a feature may claim it (a registration link's token). */
export interface InboundArrival {
  channel: ChannelRow;
  text: string | null | undefined;
}

export interface InboundClaim {
  /** The project the claim is for: it holds only when the message lands in that project. */
  projectId: string;
  /** On the shared sandbox, the join code to apply as if the tester had typed `join <code>`. */
  joinCode: string;
  /** Inside the transaction, before the message's events: finishes the claim and returns the contact to use. */
  complete(input: { contact: ContactRow; messageId: string }): Promise<ContactRow>;
}

export const inboundMessageClaims = new ClaimList<InboundArrival, InboundClaim>("inbound message claimed");

/** A new customer message, stored with its contact and conversation, message.received emitted. */
export interface InboundStored {
  project: ProjectRow;
  channel: ChannelRow;
  conversation: ConversationRow;
  contact: ContactRow;
  messageId: string;
  message: NormalizedInboundMessage;
  /** The sender's address as the provider gave it (a phone on PLATFORM_A), if any. */
  fromAddress: string | null;
  receivedAt: Date;
  /** The routing and handoff it arrived under (stored on its row). */
  arrival: ArrivalFacts;
}

export const inboundMessageStored = new ReactionList<InboundStored>("inbound message stored");

/** A new customer message about to be stored: what a feature's job needs to know to be asked for. */
export interface InboundTurn {
  messageId: string;
  messageType: string;
  /** The routing and handoff it arrives under (stored on its row). */
  arrival: ArrivalFacts;
}

/** The jobs written with a new customer message, in its statement when ingest can (message-announced.ts). */
export const inboundMessageJobs = new JobAskList<InboundTurn>("inbound message's jobs");

/** A business account's Flow changed status at the provider (the item names no number). */
export interface FlowStatusReceived {
  businessAccountId: string;
  metaFlowId: string;
  newStatus: string;
  message: string | null;
}

export const flowStatusReceived = new ReactionList<FlowStatusReceived>("provider flow status received");

/** A business account's template was reviewed, paused or disabled at the provider. */
export interface TemplateStatusReceived {
  businessAccountId: string;
  metaTemplateId: string;
  event: string;
  reason: string | null;
}

export const templateStatusReceived = new ReactionList<TemplateStatusReceived>("provider template status received");
