"use client";

import { useState } from "react";
import { Card, CardHeader, EmptyState, ErrorState, Field, Select, SkeletonGroup, SkeletonRows, TBody, TD, TH, THead, TR, Table, Time } from "@/components/ui";
import { RECIPIENT_STATUS_LIST, useBroadcastRecipients, type BroadcastRecipient, type BroadcastRecipientStatus } from "@/lib/client/broadcasts";
import { RecipientStatusBadge } from "./broadcast-badges";
import { failureText, RECIPIENT_STATUS, skipReasonText } from "./model/vocabulary";
import { Pager } from "./pager";
import { useCursorPages } from "./use-cursor-pages";

const PAGE_SIZE = 25;

/** The API stores numbers as digits; people read them with the international "+". */
const displayNumber = (to: string) => (/^\d+$/.test(to) ? `+${to}` : to);

function RecipientRow({ recipient }: { recipient: BroadcastRecipient }) {
  const detail = recipient.status === "skipped" ? skipReasonText(recipient.skip_reason) : recipient.status === "failed" ? failureText(recipient) : null;
  return (
    <TR data-recipient-to={recipient.to}>
      <TD mono>{displayNumber(recipient.to)}</TD>
      <TD>
        <RecipientStatusBadge status={recipient.status} />
        {detail && <p className="mt-0.5 text-xs text-slate-500">{detail}</p>}
      </TD>
      <TD mono className="text-slate-500">
        {recipient.message_id ?? "—"}
      </TD>
      <TD className="text-[13px] text-slate-600">{recipient.replied_at ? <Time value={recipient.replied_at} /> : "—"}</TD>
      <TD className="text-[13px] text-slate-600">
        <Time value={recipient.updated_at} />
      </TD>
    </TR>
  );
}

/** Every recipient with its own status, filtered by status on the server and paged; fresh while it sends. */
export function RecipientsTable({ projectId, broadcastId, pollMs }: { projectId: string; broadcastId: string; pollMs: number | false }) {
  const [status, setStatus] = useState<BroadcastRecipientStatus | undefined>();
  const pages = useCursorPages();
  const recipients = useBroadcastRecipients(projectId, broadcastId, { status, cursor: pages.cursor, limit: PAGE_SIZE, pollMs });
  const list = recipients.data?.data ?? [];
  return (
    <Card>
      <CardHeader
        title="Recipients"
        actions={
          <Field label="Recipient status" className="w-44">
            <Select
              value={status ?? ""}
              onChange={(e) => {
                setStatus((e.target.value || undefined) as BroadcastRecipientStatus | undefined);
                pages.reset();
              }}
            >
              <option value="">Any status</option>
              {RECIPIENT_STATUS_LIST.map((value) => (
                <option key={value} value={value}>
                  {RECIPIENT_STATUS[value].label}
                </option>
              ))}
            </Select>
          </Field>
        }
      />
      {recipients.isPending ? (
        <SkeletonGroup label="Loading recipients">
          <SkeletonRows rows={5} columns={5} />
        </SkeletonGroup>
      ) : recipients.isError ? (
        <ErrorState
          compact
          error={recipients.error}
          title="Couldn't load recipients"
          onRetry={() => void recipients.refetch()}
          retrying={recipients.isFetching}
        />
      ) : list.length === 0 ? (
        <EmptyState compact title={status ? `No ${RECIPIENT_STATUS[status].label.toLowerCase()} recipients` : "No recipients yet"} />
      ) : (
        <div className="overflow-x-auto">
          <Table caption="Recipients of this broadcast">
            <THead>
              <tr>
                <TH>Number</TH>
                <TH>Status</TH>
                <TH>Message</TH>
                <TH>Replied</TH>
                <TH>Updated</TH>
              </tr>
            </THead>
            <TBody>
              {list.map((recipient) => (
                <RecipientRow key={recipient.id} recipient={recipient} />
              ))}
            </TBody>
          </Table>
        </div>
      )}
      <div className="px-4 py-3">
        <Pager
          label="Recipient pages"
          page={pages.page}
          hasPrevious={pages.hasPrevious}
          hasNext={recipients.data?.has_more === true}
          onPrevious={pages.previous}
          onNext={() => pages.next(list.at(-1)?.id)}
          loading={recipients.isPlaceholderData}
        />
      </div>
    </Card>
  );
}
