"use client";

import { projectPath } from "@/components/shell/nav-links";
import { RowLink, Table, TableContainer, TBody, TD, TH, THead, Time, TR } from "@/components/ui";
import type { Flow } from "@/lib/client/flows";
import { FlowStatusBadge, MetaStatusBadge } from "./flow-badges";

export function flowPath(projectId: string, flowId: string): string {
  return projectPath(projectId, `flows/${encodeURIComponent(flowId)}`);
}

interface FlowGroup {
  configKey: string | null;
  flows: Flow[];
}

/**
 * Locale variants side by side: flows sharing a config_key form one group (sent by config_key, the
 * locale picked per contact), sorted by key; flows without a key come last, each on its own.
 */
function groupFlows(flows: Flow[]): FlowGroup[] {
  const byKey = new Map<string, Flow[]>();
  const loose: Flow[] = [];
  for (const flow of flows) {
    if (flow.config_key === null) loose.push(flow);
    else byKey.set(flow.config_key, [...(byKey.get(flow.config_key) ?? []), flow]);
  }
  const localeOrder = (flow: Flow) => flow.locale ?? "";
  const keyed = [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([configKey, group]) => ({ configKey, flows: group.sort((a, b) => localeOrder(a).localeCompare(localeOrder(b))) }));
  return loose.length ? [...keyed, { configKey: null, flows: loose }] : keyed;
}

function FlowRow({ projectId, flow }: { projectId: string; flow: Flow }) {
  return (
    <TR interactive className="relative" data-flow-id={flow.id}>
      <TD className="max-w-80">
        <RowLink href={flowPath(projectId, flow.id)}>{flow.name}</RowLink>
        {flow.description && <p className="truncate text-xs text-slate-500">{flow.description}</p>}
      </TD>
      <TD mono className="text-slate-600">
        {flow.locale ?? <span className="font-sans text-slate-500">Default</span>}
      </TD>
      <TD>
        <FlowStatusBadge status={flow.status} />
        {flow.has_unpublished_changes && <span className="ml-2 text-xs text-amber-700">Unpublished changes</span>}
      </TD>
      <TD>
        <MetaStatusBadge status={flow.meta_status} reason={flow.meta_status_reason} />
      </TD>
      <TD numeric>{flow.published_version ?? "—"}</TD>
      <TD className="text-slate-600">
        <Time value={flow.updated_at} />
      </TD>
    </TR>
  );
}

/** Every flow of the project, grouped by config_key with one row per locale variant. */
export function FlowsTable({ projectId, flows }: { projectId: string; flows: Flow[] }) {
  return (
    <TableContainer label="Flows">
      <Table caption="Flows of this project, grouped by config key">
        <THead>
          <tr>
            <TH>Name</TH>
            <TH>Locale</TH>
            <TH>Status</TH>
            <TH>Provider status</TH>
            <TH className="text-right">Version</TH>
            <TH>Updated</TH>
          </tr>
        </THead>
        {groupFlows(flows).map((group) => (
          <TBody key={group.configKey ?? "(none)"} aria-label={group.configKey ? `Config key ${group.configKey}` : "Without a config key"}>
            <tr className="bg-slate-50/60">
              <th scope="rowgroup" colSpan={6} className="px-4 py-1.5 text-left text-xs font-medium text-slate-500">
                {group.configKey ? (
                  <>
                    Config key <code className="font-mono text-[12px] text-slate-800">{group.configKey}</code>
                    <span className="ml-2 text-slate-500">
                      {group.flows.length} {group.flows.length === 1 ? "locale" : "locales"}
                    </span>
                  </>
                ) : (
                  "Without a config key"
                )}
              </th>
            </tr>
            {group.flows.map((flow) => (
              <FlowRow key={flow.id} projectId={projectId} flow={flow} />
            ))}
          </TBody>
        ))}
      </Table>
    </TableContainer>
  );
}
