"use client";

import { useMemo } from "react";
import { useAutomations } from "@/lib/client/automations";
import type { Channel } from "@/lib/client/channels";
import type { Conversation } from "@/lib/client/inbox";
import { useProject } from "@/lib/client/projects";
import { whoAnswers, type AnsweringFacts, type WhoAnswers } from "./who-answers";

/**
 * The project-wide facts whoAnswers judges by: routing, webhook, automations. Every row asks;
 * react-query shares one request of each. Automations are asked for whatever the project's routing,
 * since a dedicated channel can route FLOWS under an EXTERNAL project.
 */
function useAnsweringFacts(projectId: string): AnsweringFacts | undefined {
  const project = useProject(projectId);
  const automations = useAutomations(projectId);
  const list = useMemo(() => automations.data?.pages.flatMap((page) => page.data), [automations.data]);
  return useMemo(
    () => (project.data ? { projectRouting: project.data.routing_mode, hasWebhook: Boolean(project.data.webhook_url), automations: list } : undefined),
    [project.data, list],
  );
}

export function useWhoAnswers(projectId: string, conversation: Conversation, channel: Channel | null | undefined): WhoAnswers | null {
  const facts = useAnsweringFacts(projectId);
  return whoAnswers(facts, conversation, channel);
}
