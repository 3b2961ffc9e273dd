"use client";

import { CheckCircleIcon, EmptyState, QueryState, SkeletonRows, TBody, TD, TH, THead, TR, Table, TableContainer, Time } from "@/components/ui";
import { useFlowSubmissions } from "@/lib/client/flows";
import { SubmissionStatusBadge } from "./activity-badges";
import { ContactCell } from "./contact-cell";
import { SubmissionFields } from "./submission-fields";

/** Every completion of this flow, newest first, with what the customer entered. */
export function SubmissionsTable({ projectId, flowId }: { projectId: string; flowId: string }) {
  const submissions = useFlowSubmissions(projectId, flowId);
  return (
    <QueryState
      query={submissions}
      loadingLabel="Loading submissions"
      skeleton={<SkeletonRows rows={3} columns={4} />}
      errorTitle="Couldn't load submissions"
      isEmpty={(page) => page.data.length === 0}
      empty={
        <EmptyState
          icon={<CheckCircleIcon />}
          title="No submissions yet"
          description="When a customer completes the flow, what they entered shows up here and goes to your webhook as flow.completed."
        />
      }
    >
      {(page) => (
        <TableContainer label="Submissions">
          <Table caption="Submissions of this flow, newest first">
            <THead>
              <tr>
                <TH>Status</TH>
                <TH>Fields</TH>
                <TH>From</TH>
                <TH>Flow token</TH>
                <TH>Received</TH>
              </tr>
            </THead>
            <TBody>
              {page.data.map((submission) => (
                <TR key={submission.id} data-submission-id={submission.id}>
                  <TD className="align-top">
                    <SubmissionStatusBadge status={submission.status} />
                  </TD>
                  <TD className="max-w-md min-w-64 align-top">
                    <SubmissionFields submission={submission} />
                  </TD>
                  <TD className="align-top">
                    <ContactCell projectId={projectId} phone={submission.from} contactId={submission.contact_id} conversationId={submission.conversation_id} />
                  </TD>
                  <TD className="align-top">
                    <code className="block max-w-44 truncate font-mono text-[12px]" title={submission.flow_token}>
                      {submission.flow_token}
                    </code>
                  </TD>
                  <TD className="align-top text-slate-600">
                    <Time value={submission.created_at} />
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
