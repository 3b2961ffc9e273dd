import { TBody, TD, TH, THead, TR, Table, TableContainer } from "@/components/ui";
import type { ParsedRecipients } from "./model/recipients-csv";

const PREVIEW_ROWS = 5;

/** The file as it will be sent: the count and the first rows, each with its line, who and its variables. */
export function CsvPreview({ name, parsed }: { name: string; parsed: ParsedRecipients }) {
  const { recipients, parameterColumns, idColumn } = parsed;
  if (!idColumn) return null;
  return (
    <div className="space-y-2" data-testid="csv-preview">
      <p className="text-sm text-slate-700">
        <span className="font-medium">{name}</span>: <span data-testid="csv-count">{recipients.length}</span>{" "}
        {recipients.length === 1 ? "recipient" : "recipients"} from column <span className="font-mono">{idColumn}</span>
        {parameterColumns.length > 0 && (
          <>
            , variables <span className="font-mono">{parameterColumns.join(", ")}</span>
          </>
        )}
        .
      </p>
      {recipients.length > 0 && (
        <TableContainer label="First rows of the file">
          <Table caption="First rows of the file">
            <THead>
              <tr>
                <TH>Line</TH>
                <TH>Recipient</TH>
                {parameterColumns.map((column) => (
                  <TH key={column}>{column}</TH>
                ))}
              </tr>
            </THead>
            <TBody>
              {recipients.slice(0, PREVIEW_ROWS).map(({ line, recipient }) => {
                const parameters = recipient.parameters && !Array.isArray(recipient.parameters) ? recipient.parameters : {};
                return (
                  <TR key={line}>
                    <TD numeric>{line}</TD>
                    <TD mono>{recipient.to ?? recipient.contact_id}</TD>
                    {parameterColumns.map((column) => (
                      <TD key={column}>{parameters[column] ?? ""}</TD>
                    ))}
                  </TR>
                );
              })}
            </TBody>
          </Table>
        </TableContainer>
      )}
      {recipients.length > PREVIEW_ROWS && <p className="text-xs text-slate-500">…and {recipients.length - PREVIEW_ROWS} more.</p>}
    </div>
  );
}
