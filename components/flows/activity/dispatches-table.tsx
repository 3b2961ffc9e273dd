"use client";

import { CopyButton, EmptyState, PhoneIcon, QueryState, SkeletonRows, TBody, TD, TH, THead, TR, Table, TableContainer, Time } from "@/components/ui";
import { useFlowDispatches } from "@/lib/client/flows";
import { DispatchStatusBadge } from "./activity-badges";
import { ContactCell } from "./contact-cell";

/** Every send of this flow, newest first: its flow_token, who got it, and whether they completed it. */
export function DispatchesTable({ projectId, flowId }: { projectId: string; flowId: string }) {
  const dispatches = useFlowDispatches(projectId, flowId);
  return (
    <QueryState
      query={dispatches}
      loadingLabel="Loading dispatches"
      skeleton={<SkeletonRows rows={3} columns={5} />}
      errorTitle="Couldn't load dispatches"
      isEmpty={(page) => page.data.length === 0}
      empty={
        <EmptyState
          icon={<PhoneIcon />}
          title="Not sent yet"
          description="Publish the flow, then send it to a sandbox tester: each send is listed here with its flow token."
        />
      }
    >
      {(page) => (
        <TableContainer label="Dispatches">
          <Table caption="Dispatches of this flow, newest first">
            <THead>
              <tr>
                <TH>Status</TH>
                <TH>Flow token</TH>
                <TH>Contact</TH>
                <TH>Sent</TH>
                <TH>Completed</TH>
                <TH>Expires</TH>
              </tr>
            </THead>
            <TBody>
              {page.data.map((dispatch) => (
                <TR key={dispatch.id} data-dispatch-id={dispatch.id}>
                  <TD>
                    <DispatchStatusBadge status={dispatch.status} />
                  </TD>
                  <TD>
                    <span className="inline-flex items-center gap-1">
                      <code className="max-w-52 truncate font-mono text-[12px]" title={dispatch.flow_token}>
                        {dispatch.flow_token}
                      </code>
                      <CopyButton value={dispatch.flow_token} label="flow token" size="xs" />
                    </span>
                  </TD>
                  <TD>
                    <ContactCell projectId={projectId} phone={dispatch.to} contactId={dispatch.contact_id} conversationId={dispatch.conversation_id} />
                  </TD>
                  <TD className="text-slate-600">
                    <Time value={dispatch.created_at} />
                  </TD>
                  <TD className="text-slate-600">
                    <Time value={dispatch.completed_at} fallback="—" />
                  </TD>
                  <TD className="text-slate-600">
                    <Time value={dispatch.expires_at} format="absolute" />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </TableContainer>
      )}
    </QueryState>
  );
}
