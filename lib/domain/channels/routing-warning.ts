import { and, eq, inArray } from "drizzle-orm";
import { automations, businessAgents } from "@/lib/db/schema";
import type { ProjectRow } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { ROUTING_SENTENCES, effectiveRouting } from "@/lib/shared/routing-modes";
import type { ChannelRow } from "./sandbox";

/**
 * Whether something answers where a channel routes: the facts Channel.routing_warning needs beyond
 * the channel and its project. Automations are project-wide; a business agent belongs to one channel.
 */
export interface AnsweringFacts {
  /** Ids of projects with at least one active automation. */
  automated: ReadonlySet<string>;
  /** agentKey of every ACTIVE business agent. */
  activeAgents: ReadonlySet<string>;
}

const agentKey = (projectId: string, channelId: string) => `${projectId}:${channelId}`;

/** The channels to judge, each with the project its inbound goes to (for the sandbox: the viewer). */
export interface RoutedPair {
  channel: ChannelRow;
  project: ProjectRow | null;
}

/** Only what the pairs' routing needs: no query at all when none routes FLOWS or AGENT. */
export async function loadAnsweringFacts(db: Db, pairs: readonly RoutedPair[]): Promise<AnsweringFacts> {
  const routed = pairs.flatMap(({ channel, project }) => (project ? [{ channel, project, mode: effectiveRouting(project.routingMode, channel) }] : []));
  const flowsProjects = [...new Set(routed.filter((r) => r.mode === "FLOWS").map((r) => r.project.id))];
  const agentPairs = routed.filter((r) => r.mode === "AGENT");
  const automated = flowsProjects.length
    ? await db
        .selectDistinct({ projectId: automations.projectId })
        .from(automations)
        .where(and(inArray(automations.projectId, flowsProjects), eq(automations.active, true)))
    : [];
  const agents = agentPairs.length
    ? await db
        .select({ projectId: businessAgents.projectId, channelId: businessAgents.channelId })
        .from(businessAgents)
        .where(
          and(
            inArray(businessAgents.projectId, [...new Set(agentPairs.map((r) => r.project.id))]),
            inArray(businessAgents.channelId, [...new Set(agentPairs.map((r) => r.channel.id))]),
            eq(businessAgents.status, "ACTIVE"),
          ),
        )
    : [];
  return { automated: new Set(automated.map((r) => r.projectId)), activeAgents: new Set(agents.map((r) => agentKey(r.projectId, r.channelId))) };
}

/**
 * Non-null when inbound on this channel would be silently dropped, not forwarded or not answered
 * (spec: Channel.routing_warning), judged by its effective routing. `viewer` is the key's project;
 * `linked` is the project inbound on a dedicated channel is routed to (null when none is). The shared
 * sandbox routes each tester by the project they joined, so for it the viewer's own settings decide.
 */
export function routingWarningOf(channel: ChannelRow, viewer: ProjectRow, linked: ProjectRow | null, facts: AnsweringFacts): string | null {
  if (!channel.isSandbox) {
    if (channel.status === "disconnected") {
      return "This channel is disconnected: inbound messages on it are acknowledged to the provider but not stored, and nothing can be sent through it. Connect the number again (POST /channels) to use it.";
    }
    if (!linked) {
      return "This channel is not the channel of any project (no project has it as channel_id): inbound messages on it are not routed to a project and are dropped.";
    }
  }
  const project = channel.isSandbox ? viewer : linked!;
  const whose = channel.isSandbox ? "your project" : project.id === viewer.id ? "the project" : `its project ${project.id}`;
  const where = channel.isSandbox ? "messages your sandbox testers send" : "inbound messages on this channel";
  // The subject again after "but": "Your project routes FLOWS but it has…", "This channel routes FLOWS but the project has…".
  const has = channel.isSandbox ? "it" : whose;
  const mode = effectiveRouting(project.routingMode, channel);
  const routes = channel.isSandbox
    ? `${capitalize(whose)} routes ${mode}`
    : channel.routingMode === null
      ? `This channel routes ${mode} (the routing of ${whose}, which it follows)`
      : `This channel routes ${mode}`;
  if (mode === "NONE") return `${routes}. ${ROUTING_SENTENCES.NONE}`;
  if (mode === "EXTERNAL" && !project.webhookUrl) {
    return `${routes} but ${has} has no webhook_url: ${where} are recorded but delivered nowhere until a webhook URL is set.`;
  }
  if (mode === "FLOWS" && !facts.automated.has(project.id)) {
    return `${routes} but ${has} has no active automation: ${where} are recorded, not forwarded to the webhook, and nothing answers them. Turn an automation on, or route inbound elsewhere.`;
  }
  if (mode === "FLOWS" && !channel.isSandbox && project.routingMode === "EXTERNAL" && project.webhookUrl) {
    return `${routes} (native automations) but ${whose} forwards to its webhook (EXTERNAL): ${where} are not forwarded to the webhook; only the automations answer them, and a message no automation matches is recorded and gets no answer.`;
  }
  if (mode === "AGENT" && !facts.activeAgents.has(agentKey(project.id, channel.id))) {
    const instead = project.webhookUrl
      ? "are forwarded to the webhook instead"
      : `would go to the webhook, but ${whose} has no webhook_url: they are recorded and delivered nowhere`;
    return `${routes} but ${channel.isSandbox ? "the shared sandbox" : "this channel"} has no ACTIVE business agent of ${whose}: ${where} ${instead}. Turn the agent on for it on the Agent page (POST /business-agents).`;
  }
  return null;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
