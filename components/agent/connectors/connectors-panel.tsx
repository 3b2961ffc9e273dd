"use client";

import { useState } from "react";
import { Badge, Button, Card, CardBody, CardHeader, ConfirmDialog, EmptyState, ErrorState, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";
import { useAgentConnectors, useDeleteConnector, useDeleteTool, type AgentConnector, type AgentTool, type BusinessAgent } from "@/lib/client/agents";
import { ConnectorDialog } from "./connector-dialog";
import { ToolDialog } from "./tool-dialog";

type Editing = { kind: "connector"; connector: AgentConnector | null } | { kind: "tool"; connector: AgentConnector; tool: AgentTool | null } | null;
type Deleting = { kind: "connector"; id: string; name: string } | { kind: "tool"; id: string; name: string } | null;

function backingLabel(tool: AgentTool): string {
  if (tool.backing_type === "HOSTED_FUNCTION") return `function ${tool.backing_function_id ?? "?"}`;
  if (tool.backing_type === "FLOW") return `flow ${tool.backing_flow_id ?? "?"}`;
  if (tool.backing_type === "API_ENDPOINT") return `${String(tool.config?.method ?? "POST")} ${String(tool.config?.path ?? "")}`;
  return "fixed response";
}

/** The agent's connectors, each with its tools; create, edit and delete both. */
export function ConnectorsPanel({ projectId, agent, canWrite }: { projectId: string; agent: BusinessAgent; canWrite: boolean }) {
  const connectors = useAgentConnectors(projectId, agent.id);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const deleteConnector = useDeleteConnector(projectId, agent.id);
  const deleteTool = useDeleteTool(projectId, agent.id);
  const close = () => setEditing(null);

  let body;
  if (connectors.isPending)
    body = (
      <SkeletonGroup label="Loading connectors">
        <SkeletonRows rows={2} columns={3} />
      </SkeletonGroup>
    );
  else if (connectors.isError)
    body = <ErrorState compact error={connectors.error} title="Couldn't load connectors" onRetry={() => void connectors.refetch()} />;
  else if (!connectors.data.length)
    body = (
      <EmptyState
        compact
        title="No connectors yet"
        description="A connector holds tools: hosted functions, flows, your API endpoints or fixed answers that skills call."
      />
    );
  else
    body = (
      <ul className="space-y-3">
        {connectors.data.map((connector) => (
          <li key={connector.id} className="rounded-md ring-1 ring-slate-200" aria-label={`Connector ${connector.name}`}>
            <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
              <div className="flex items-center gap-2">
                <span className="text-sm font-medium text-slate-900">{connector.name}</span>
                <Badge>{connector.type}</Badge>
                {connector.status === "DISABLED" && <Badge tone="warning">DISABLED</Badge>}
                {typeof connector.config?.secret === "string" && <span className="font-mono text-xs text-slate-500">secret {connector.config.secret}</span>}
              </div>
              {canWrite && (
                <div className="flex gap-1.5">
                  <Button size="sm" icon={<PlusIcon />} onClick={() => setEditing({ kind: "tool", connector, tool: null })}>
                    Add tool
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setEditing({ kind: "connector", connector })}>
                    Edit
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Delete connector ${connector.name}`}
                    onClick={() => setDeleting({ kind: "connector", id: connector.id, name: connector.name })}
                  >
                    <TrashIcon />
                  </Button>
                </div>
              )}
            </div>
            {connector.tools.length === 0 ? (
              <p className="px-3 py-2 text-sm text-slate-500">No tools yet.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {connector.tools.map((tool) => (
                  <li key={tool.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                    <div className="min-w-0">
                      <span className="font-mono text-slate-900">{tool.name}</span>
                      <span className="ml-2 text-xs text-slate-500">
                        {tool.backing_type} · {backingLabel(tool)}
                      </span>
                      {tool.description && <p className="text-xs text-slate-500">{tool.description}</p>}
                    </div>
                    {canWrite && (
                      <div className="flex gap-1.5">
                        <Button size="sm" variant="ghost" onClick={() => setEditing({ kind: "tool", connector, tool })}>
                          Edit
                        </Button>
                        <Button
                          size="icon"
                          variant="ghost"
                          aria-label={`Delete tool ${tool.name}`}
                          onClick={() => setDeleting({ kind: "tool", id: tool.id, name: tool.name })}
                        >
                          <TrashIcon />
                        </Button>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    );

  return (
    <Card>
      <CardHeader
        title="Connectors and tools"
        description="The tools skills can call, grouped by connector."
        actions={
          canWrite && (
            <Button size="sm" variant="primary" icon={<PlusIcon />} onClick={() => setEditing({ kind: "connector", connector: null })}>
              New connector
            </Button>
          )
        }
      />
      <CardBody>{body}</CardBody>
      <ConnectorDialog
        projectId={projectId}
        agentId={agent.id}
        connector={editing?.kind === "connector" ? editing.connector : null}
        open={editing?.kind === "connector"}
        onClose={close}
      />
      {editing?.kind === "tool" && (
        <ToolDialog projectId={projectId} agentId={agent.id} connector={editing.connector} tool={editing.tool} open onClose={close} />
      )}
      <ConfirmDialog
        open={!!deleting}
        onClose={() => setDeleting(null)}
        title={deleting?.kind === "connector" ? `Delete connector ${deleting.name}?` : `Delete tool ${deleting?.name ?? ""}?`}
        description={
          deleting?.kind === "connector"
            ? "Its tools go too; skills that call them will fail to save until you change them."
            : "Skills that call it will fail to save until you change them."
        }
        confirmLabel="Delete"
        onConfirm={() =>
          deleting?.kind === "connector" ? deleteConnector.mutateAsync(deleting.id) : deleting ? deleteTool.mutateAsync(deleting.id) : undefined
        }
      />
    </Card>
  );
}
