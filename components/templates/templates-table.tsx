"use client";

import { Button, TBody, TD, TH, THead, TR, Table, TableContainer, Time, TrashIcon } from "@/components/ui";
import type { Template } from "@/lib/client/templates";
import { CATEGORY_LABELS } from "./model/vocabulary";
import { TemplateStatusBadge } from "./template-badges";

interface RowProps {
  template: Template;
  channelName: string;
  canWrite: boolean;
  onDelete: (template: Template) => void;
}

function TemplateRow({ template, channelName, canWrite, onDelete }: RowProps) {
  const rejected = template.status === "REJECTED";
  return (
    <TR data-template-id={template.id} data-template-name={template.name}>
      <TD className="max-w-80">
        <p className="font-mono text-[13px] font-medium text-slate-900">{template.name}</p>
        {rejected && (
          <p className="mt-0.5 text-xs text-red-700" data-testid="rejection-reason">
            <span className="font-medium">Reason:</span> {template.rejection_reason ?? "The provider gave none."}
          </p>
        )}
      </TD>
      <TD mono className="text-slate-600">
        {template.language}
      </TD>
      <TD className="text-slate-600">{CATEGORY_LABELS[template.category] ?? template.category}</TD>
      <TD className="max-w-40 truncate text-slate-600" title={template.channel_id}>
        {channelName}
      </TD>
      <TD>
        <TemplateStatusBadge status={template.status} />
      </TD>
      <TD className="text-[13px] leading-5 text-slate-600">
        <p>
          Submitted <Time value={template.submitted_at} />
        </p>
        {(template.approved_at || template.rejected_at) && (
          <p className="text-slate-500">
            {rejected ? "Rejected" : "Approved"} <Time value={rejected ? template.rejected_at : template.approved_at} />
          </p>
        )}
      </TD>
      <TD className="text-right">
        {canWrite && (
          <Button variant="ghost" size="icon" aria-label={`Delete template ${template.name} (${template.language})`} onClick={() => onDelete(template)}>
            <TrashIcon />
          </Button>
        )}
      </TD>
    </TR>
  );
}

/** The project's templates with their review status; a REJECTED one shows the provider's reason under its name. */
export function TemplatesTable({
  templates,
  channelNames,
  canWrite,
  onDelete,
}: {
  templates: Template[];
  channelNames: ReadonlyMap<string, string>;
  canWrite: boolean;
  onDelete: (template: Template) => void;
}) {
  return (
    <TableContainer label="Templates">
      <Table caption="Message templates of this project">
        <THead>
          <tr>
            <TH>Name</TH>
            <TH>Language</TH>
            <TH>Category</TH>
            <TH>Channel</TH>
            <TH>Status</TH>
            <TH>Review</TH>
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          </tr>
        </THead>
        <TBody>
          {templates.map((template) => (
            <TemplateRow
              key={template.id}
              template={template}
              channelName={channelNames.get(template.channel_id) ?? template.channel_id}
              canWrite={canWrite}
              onDelete={onDelete}
            />
          ))}
        </TBody>
      </Table>
    </TableContainer>
  );
}
