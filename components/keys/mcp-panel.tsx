"use client";

import { useState } from "react";
import {
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  CodeBlock,
  ErrorState,
  Field,
  Select,
  SkeletonGroup,
  SkeletonRows,
  TBody,
  TD,
  TH,
  THead,
  TR,
  Table,
  TableContainer,
} from "@/components/ui";
import { useOrigin } from "@/components/ui/use-origin";
import type { ApiKey } from "@/lib/client/keys";
import { MCP_PATH, mcpClientConfig, useMcpTools, type McpTool } from "@/lib/client/mcp-tools";
import { keyLabel, sortKeys } from "./keys-list";

const HEADING_ID = "mcp-panel-heading";
const BODY_ID = "mcp-panel-body";
const SUBHEADING = "text-[13px] font-medium text-slate-800";

/**
 * "Use with an AI assistant (MCP)": where MCP clients connect, the configuration they need (with a
 * placeholder, never a key's value: this page only has one right after creation), and the tools a
 * chosen key would get. The server lists them (GET /mcp-tools), from the key's scopes.
 */
export function McpPanel({ projectId, keys }: { projectId: string; keys: ApiKey[] }) {
  const [open, setOpen] = useState(false);
  const url = `${useOrigin()}${MCP_PATH}`;
  return (
    <Card aria-labelledby={HEADING_ID} className="mt-8">
      <CardHeader
        title={<span id={HEADING_ID}>Use with an AI assistant (MCP)</span>}
        description="Connect Claude, Cursor or any MCP client to this project with a secret key."
        actions={
          <Button size="sm" variant="secondary" aria-expanded={open} aria-controls={BODY_ID} onClick={() => setOpen((current) => !current)}>
            {open ? "Hide" : "Set up"}
          </Button>
        }
      />
      {open && (
        <CardBody id={BODY_ID} className="space-y-5">
          <div className="space-y-1.5">
            <h3 className={SUBHEADING}>Server URL</h3>
            <CodeBlock value={url} label="MCP server URL" />
          </div>
          <div className="space-y-1.5">
            <h3 className={SUBHEADING}>Client configuration</h3>
            <CodeBlock value={mcpClientConfig(url)} label="MCP client configuration" multiline />
            <p className="text-xs leading-5 text-slate-500">
              Replace <code className="font-mono text-slate-700">&lt;your key&gt;</code> with a secret key&apos;s value. It is shown only once, when you create
              the key.
            </p>
          </div>
          <KeyTools projectId={projectId} keys={keys} />
        </CardBody>
      )}
    </Card>
  );
}

/** The key picker (active secret keys: the only ones the MCP server admits) and the picked key's tools. */
function KeyTools({ projectId, keys }: { projectId: string; keys: ApiKey[] }) {
  const usable = sortKeys(keys).filter((key) => key.kind === "secret" && key.revoked_at === null);
  const [picked, setPicked] = useState<string | null>(null);
  // The first key until the operator picks one, and again if the picked one is revoked meanwhile.
  const selected = usable.find((key) => key.id === picked) ?? usable[0] ?? null;
  const tools = useMcpTools(projectId, selected?.id ?? null);

  if (!selected) {
    return <p className="text-[13px] text-slate-500">Create a secret key to see the tools an MCP client would get with it.</p>;
  }
  return (
    <div className="space-y-3">
      <Field label="Key" hint="Tools follow the key's scopes: an MCP client sees and can call only the tools its key allows.">
        <Select value={selected.id} onChange={(event) => setPicked(event.target.value)} className="max-w-md">
          {usable.map((key) => (
            <option key={key.id} value={key.id}>
              {keyLabel(key)} ({key.display})
            </option>
          ))}
        </Select>
      </Field>
      {tools.isPending ? (
        <SkeletonGroup label="Loading MCP tools">
          <SkeletonRows rows={3} columns={3} />
        </SkeletonGroup>
      ) : tools.isError ? (
        <ErrorState error={tools.error} title="Couldn't load the tools" onRetry={() => void tools.refetch()} retrying={tools.isFetching} compact />
      ) : tools.data.length === 0 ? (
        <p className="text-[13px] text-slate-500">None of this key&apos;s scopes grants an MCP tool.</p>
      ) : (
        <ToolsTable tools={tools.data} keyName={keyLabel(selected)} />
      )}
    </div>
  );
}

function ToolsTable({ tools, keyName }: { tools: McpTool[]; keyName: string }) {
  return (
    <TableContainer label="MCP tools">
      <Table caption={`MCP tools ${keyName} may use`}>
        <THead>
          <tr>
            <TH>Tool</TH>
            <TH>Access</TH>
            <TH>Needs scope</TH>
          </tr>
        </THead>
        <TBody>
          {tools.map((tool) => (
            <TR key={tool.name} data-tool-name={tool.name}>
              <TD className="max-w-md align-top whitespace-normal" title={tool.description}>
                <code className="font-mono text-[13px] font-medium text-slate-900">{tool.name}</code>
                <div className="text-[13px] text-slate-500">{tool.title}</div>
              </TD>
              <TD className="align-top">{tool.read_only ? <Badge tone="info">Read-only</Badge> : <Badge tone="warning">Takes action</Badge>}</TD>
              <TD className="align-top">
                <code className="font-mono text-[12px] text-slate-700">{tool.scope}</code>
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </TableContainer>
  );
}
