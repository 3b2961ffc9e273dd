"use client";

import { useQuery } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { FlowSubmissionWire as FlowSubmission, FlowWire as Flow } from "@/lib/api/schemas/flows";
import type { RegistrationIntentWire as RegistrationIntent } from "@/lib/api/schemas/registration-intents";
import { projectApi } from "./api";
import type { Conversation } from "./inbox";
import { projectQueryKey } from "./query";

/**
 * What the inbox's contact panel shows beside a thread, from the existing endpoints only:
 * the contact's conversations (GET /conversations?contact_id=), their flow submissions and the
 * registration that linked them to the business's customer reference.
 */

const contactKey = (projectId: string, contactId: string, part: string) => projectQueryKey(projectId, "contact-panel", contactId, part);

const RECENT_CONVERSATIONS = 5;
/** Submissions are listed per flow: the newest flows of the project, each's latest submissions. */
const FLOWS_SCANNED = 20;
const SUBMISSIONS_PER_FLOW = 50;

export function useContactConversations(projectId: string, contactId: string) {
  return useQuery({
    queryKey: contactKey(projectId, contactId, "conversations"),
    queryFn: ({ signal }) =>
      projectApi<ListEnvelope<Conversation>>(projectId, `/conversations?contact_id=${encodeURIComponent(contactId)}&limit=${RECENT_CONVERSATIONS}`, {
        signal,
      }),
    select: (page) => page.data,
  });
}

interface ContactSubmission extends FlowSubmission {
  flow_name: string;
}

/**
 * The contact's flow submissions, newest first. The API lists submissions per flow, so this reads the
 * newest flows' latest submissions and keeps the contact's (a bounded scan, said so in the panel).
 */
export function useContactSubmissions(projectId: string, contactId: string) {
  return useQuery({
    queryKey: contactKey(projectId, contactId, "submissions"),
    queryFn: async ({ signal }): Promise<ContactSubmission[]> => {
      const flows = await projectApi<ListEnvelope<Flow>>(projectId, `/flows?limit=${FLOWS_SCANNED}`, { signal });
      const lists = await Promise.all(
        flows.data.map(async (flow) => {
          const page = await projectApi<ListEnvelope<FlowSubmission>>(
            projectId,
            `/flows/${encodeURIComponent(flow.id)}/submissions?limit=${SUBMISSIONS_PER_FLOW}`,
            {
              signal,
            },
          );
          return page.data.filter((submission) => submission.contact_id === contactId).map((submission) => ({ ...submission, flow_name: flow.name }));
        }),
      );
      return lists.flat().sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    },
    staleTime: 30_000,
  });
}

/** The registration intent this contact completed under their reference, if any. */
export function useContactRegistration(projectId: string, contactId: string, reference: string | null) {
  return useQuery({
    queryKey: contactKey(projectId, contactId, `registration:${reference ?? ""}`),
    queryFn: async ({ signal }) => {
      const page = await projectApi<ListEnvelope<RegistrationIntent>>(
        projectId,
        `/registration-intents?customer_reference=${encodeURIComponent(reference!)}&status=COMPLETED&limit=10`,
        { signal },
      );
      return page.data.find((intent) => intent.contact_id === contactId) ?? null;
    },
    enabled: Boolean(reference),
    staleTime: 60_000,
  });
}
