import { describe, expect, it } from "vitest";
import { actionKeys } from "@/components/broadcasts/model/action-key";
import { chunksOf, errorsOnLines, normalizePhone, parsePastedNumbers, parseRecipientsCsv } from "@/components/broadcasts/model/recipients-csv";
import {
  availableActions,
  failureText,
  pauseReasonText,
  progressOf,
  STAT_TILES,
  tileValues,
  unknownOutcomeWords,
} from "@/components/broadcasts/model/vocabulary";
import { PAUSE_REASONS } from "@/lib/domain/broadcasts/states";
import { MAX_RECIPIENTS_PER_CALL } from "@/lib/api/schemas/broadcasts";
import { LIVE_POLL_MS, RECIPIENTS_PER_CALL, pollIntervalOf } from "@/lib/client/broadcasts";
import { recipientProblem } from "@/lib/shared/broadcasts/recipients";
import type { TemplateShape } from "@/lib/shared/templates/types";

/**
 * The broadcast page's pure parts: a CSV (or pasted numbers) into POST /broadcasts/{id}/recipients
 * bodies with the line each came from, the server's per-chunk errors back on those lines, one
 * Idempotency-Key per action, and the words and numbers of the progress card.
 */

describe("parseRecipientsCsv", () => {
  it("maps a to column to recipients and every other column to parameters, with spreadsheet line numbers", () => {
    const csv = "to,1,first_name\n+14155550101,Ana,Ana\n\n+1 (415) 555-0102,Bo,\n";
    const parsed = parseRecipientsCsv(csv);
    expect(parsed.idColumn).toBe("to");
    expect(parsed.parameterColumns).toEqual(["1", "first_name"]);
    expect(parsed.errors).toEqual([]);
    expect(parsed.recipients).toEqual([
      { line: 2, recipient: { to: "+14155550101", parameters: { "1": "Ana", first_name: "Ana" } } },
      // Line 3 is blank and skipped; the empty first_name cell is left out rather than sent empty.
      { line: 4, recipient: { to: "+14155550102", parameters: { "1": "Bo" } } },
    ]);
  });

  it("accepts phone (any case) or contact_id as the id column, a BOM, CRLF and quoted cells", () => {
    const phone = parseRecipientsCsv('\uFEFFName,Phone\r\n"Lee, Ana",0014155550103\r\n');
    expect(phone.idColumn).toBe("Phone");
    expect(phone.recipients).toEqual([{ line: 2, recipient: { to: "+14155550103", parameters: { Name: "Lee, Ana" } } }]);
    const contacts = parseRecipientsCsv("contact_id\ncnt_1\ncnt_2");
    expect(contacts.recipients.map((r) => r.recipient)).toEqual([{ contact_id: "cnt_1" }, { contact_id: "cnt_2" }]);
  });

  it("reports rows it cannot use by line and keeps the rest", () => {
    const parsed = parseRecipientsCsv("to,code\n+14155550104,A\nnot-a-number,B\n,C\n+14155550105,D");
    expect(parsed.recipients.map((r) => r.line)).toEqual([2, 5]);
    expect(parsed.errors).toEqual([
      { line: 3, column: "to", message: "'not-a-number' is not a phone number: write it in international format with its country code, like +14155550123." },
      { line: 4, column: "to", message: "No phone number in this row: add it, or remove the row." },
    ]);
  });

  it("refuses a file without a to, phone or contact_id column on line 1", () => {
    const parsed = parseRecipientsCsv("+14155550106\n+14155550107");
    expect(parsed.recipients).toEqual([]);
    expect(parsed.idColumn).toBeNull();
    expect(parsed.errors).toEqual([{ line: 1, message: expect.stringContaining("to, phone or contact_id") }]);
  });
});

describe("parseRecipientsCsv against the broadcast's template", () => {
  // As templateShape reads "Hi {{1}}, your {{2}} is ready." under a text header "Order {{1}}".
  const shape: TemplateShape = {
    parameter_format: "POSITIONAL",
    header_format: "TEXT",
    variables: { header: ["1"], body: ["1", "2"], buttons: [] },
  };

  it("names a variable column the file lacks, and a column the template has no variable for, on line 1, and uploads nothing", () => {
    const parsed = parseRecipientsCsv("phone,1,nickname\n+14155550120,Ana,Annie", shape);
    expect(parsed.recipients).toEqual([]);
    expect(parsed.errors).toEqual([
      { line: 1, column: "2", message: "The template needs 2 for every recipient: add a column named 2 with each one's value." },
      { line: 1, column: "header.1", message: "The template needs header.1 for every recipient: add a column named header.1 with each one's value." },
      {
        line: 1,
        column: "nickname",
        message: "The template has no variable nickname. It takes 1, 2, header.1. Rename this column to one of them, or remove it.",
      },
    ]);
  });

  it("judges every row as the server will: the number, then each variable's value, by line and column", () => {
    const csv = ["phone,1,2,header.1", "+14155550121,Ana,A-1,May", "call me,Bo,A-2,May", "+14155550122,,A-3,May", "+14155550123,Cy,,"].join("\n");
    const parsed = parseRecipientsCsv(csv, shape);
    expect(parsed.recipients).toEqual([{ line: 2, recipient: { to: "+14155550121", parameters: { "1": "Ana", "2": "A-1", "header.1": "May" } } }]);
    expect(parsed.errors).toEqual([
      { line: 3, column: "phone", message: recipientProblem({ to: "call me" }, shape)!.message },
      { line: 4, column: "1", message: "Missing template variable: 1." },
      { line: 5, column: "2, header.1", message: "Missing template variables: 2, header.1." },
    ]);
  });

  it("asks pasted numbers for the variables a template takes, in the server's words", () => {
    const parsed = parsePastedNumbers("+14155550124", shape);
    expect(parsed.recipients).toEqual([]);
    expect(parsed.errors).toEqual([{ line: 1, message: "The template has variables and this recipient gives none. It takes 1, 2, header.1." }]);
  });
});

describe("normalizePhone and pasted numbers", () => {
  it("keeps the digits, writes them with a +, reads 00 as +, refuses what is not a number", () => {
    expect(normalizePhone(" +44 20 7946 0958 ")).toBe("+442079460958");
    expect(normalizePhone("14155550108")).toBe("+14155550108");
    expect(normalizePhone("0044 20 7946 0958")).toBe("+442079460958");
    expect(normalizePhone("12345")).toBeNull();
    expect(normalizePhone("+1415abc0101")).toBeNull();
  });

  it("takes one number per line or comma-separated, with errors on the pasted line", () => {
    const parsed = parsePastedNumbers("+14155550109, +14155550110\n\nhello\n+14155550111;");
    expect(parsed.recipients).toEqual([
      { line: 1, recipient: { to: "+14155550109" } },
      { line: 1, recipient: { to: "+14155550110" } },
      { line: 4, recipient: { to: "+14155550111" } },
    ]);
    expect(parsed.errors).toEqual([{ line: 3, message: expect.stringMatching(/^'hello' is not a phone number: /) }]);
  });
});

describe("chunked upload", () => {
  it("cuts at the API's limit and maps each chunk's {index} back to the file's line", () => {
    expect(RECIPIENTS_PER_CALL).toBe(MAX_RECIPIENTS_PER_CALL);
    const rows = Array.from({ length: 2_345 }, (_, i) => `+1415${String(5_550_000 + i)}`);
    const parsed = parseRecipientsCsv(`to\n${rows.join("\n")}`);
    const chunks = chunksOf(parsed.recipients, RECIPIENTS_PER_CALL);
    expect(chunks.map((chunk) => chunk.length)).toEqual([1000, 1000, 345]);
    // The third chunk's index 2 is the 2,003rd recipient: line 2,004 of the file (line 1 is the header).
    expect(errorsOnLines(chunks[2]!, [{ index: 2, message: "Invalid number" }])).toEqual([{ line: 2_004, message: "Invalid number" }]);
    expect(errorsOnLines(chunks[0]!, [{ index: 0, message: "x" }])).toEqual([{ line: 2, message: "x" }]);
  });
});

describe("actionKeys", () => {
  it("reuses the key while the same action with the same body is retried, and makes a new one after it settled or when the body changed", () => {
    let n = 0;
    const keys = actionKeys(() => `k${++n}`);
    const first = keys.keyFor("create", { name: "A" });
    expect(keys.keyFor("create", { name: "A" })).toBe(first);
    expect(keys.keyFor("send", {})).not.toBe(first);
    const changed = keys.keyFor("create", { name: "B" });
    expect(changed).not.toBe(first);
    keys.settled("create");
    expect(keys.keyFor("create", { name: "B" })).not.toBe(changed);
  });
});

describe("progress card words", () => {
  const stats = { total: 10, pending: 2, queued: 1, sent: 2, delivered: 2, read: 1, failed: 1, skipped: 1, replied: 1, outcome_unknown: 0 };

  it("counts read as delivered and everything past the send step as processed", () => {
    const progress = progressOf(stats);
    expect(progress).toMatchObject({ total: 10, delivered: 3, processed: 7, percent: 70 });
    expect(progress.segments.reduce((sum, s) => sum + s.count, 0)).toBe(8);
    expect(progressOf({ ...stats, total: 0 }).percent).toBe(0);
  });

  it("shows sent, delivered and read as a funnel (each includes the later steps); the rest as the API counts them", () => {
    expect(tileValues(stats)).toEqual({ total: 10, pending: 2, queued: 1, sent: 5, delivered: 3, read: 1, failed: 1, skipped: 1, replied: 1 });
    // All 50 read: 50 sent, 50 delivered, 50 read (the API says delivered: 0, read: 50).
    const allRead = { total: 50, pending: 0, queued: 0, sent: 0, delivered: 0, read: 50, failed: 0, skipped: 0, replied: 0, outcome_unknown: 0 };
    expect(tileValues(allRead)).toMatchObject({ sent: 50, delivered: 50, read: 50 });
    expect(STAT_TILES.map((tile) => tile.key)).toEqual(["total", "pending", "queued", "sent", "delivered", "read", "failed", "skipped", "replied"]);
  });

  it("says why it paused in a sentence, keeping an unknown reason's code", () => {
    expect(pauseReasonText("paused_by_user")).toMatch(/^Paused by an operator/);
    expect(pauseReasonText("template_disabled")).toMatch(/disabled the template/);
    expect(pauseReasonText("throughput_errors")).toMatch(/throughput/);
    expect(pauseReasonText("sender_failed")).toMatch(/Nothing was lost/);
    // Every reason the service sets has its own sentence, not the fallback for unknown ones.
    for (const reason of PAUSE_REASONS) expect(pauseReasonText(reason), reason).not.toContain(`(${reason})`);
    expect(pauseReasonText("something_new")).toContain("something_new");
    expect(pauseReasonText(null)).toBeNull();
  });

  it("offers the actions its state allows", () => {
    expect(availableActions({ status: "DRAFT", send_at: null })).toMatchObject({ send: true, sendLabel: "Send now", pause: false, addRecipients: true });
    expect(availableActions({ status: "DRAFT", send_at: "2030-01-01T00:00:00Z" }).sendLabel).toBe("Schedule");
    expect(availableActions({ status: "SENDING", send_at: null })).toMatchObject({ send: false, pause: true, resume: false, cancel: true });
    expect(availableActions({ status: "SCHEDULED", send_at: "2030-01-01T00:00:00Z" })).toMatchObject({ send: false, pause: true, addRecipients: true });
    expect(availableActions({ status: "PAUSED", send_at: null })).toMatchObject({ resume: true, pause: false });
    expect(availableActions({ status: "COMPLETED", send_at: null })).toMatchObject({
      send: false,
      pause: false,
      resume: false,
      cancel: false,
      addRecipients: false,
    });
  });
});

describe("sends whose outcome is unknown", () => {
  it("offers the resend only on a COMPLETED broadcast that has some", () => {
    const unknown = (status: "COMPLETED" | "SENDING" | "PAUSED", outcome_unknown: number) =>
      availableActions({ status, send_at: null, stats: { outcome_unknown } }).resendUnknown;
    expect(unknown("COMPLETED", 14)).toBe(true);
    expect(unknown("COMPLETED", 0)).toBe(false);
    expect(unknown("SENDING", 14)).toBe(false);
    expect(unknown("PAUSED", 14)).toBe(false);
  });

  it("says how many, why they were not sent again, and exactly what the resend will do", () => {
    const words = unknownOutcomeWords(14, "COMPLETED");
    expect(words.note).toMatch(/^14 recipients' sends have an unknown outcome/);
    expect(words.note).toContain("not sent again automatically");
    expect(words.button).toBe("Resend 14 recipients whose outcome is unknown");
    expect(words.confirmation).toContain("exactly these 14 recipients, and to nobody else");
    expect(words.confirmation).toContain("may get it twice");
    expect(unknownOutcomeWords(1, "SENDING").note).toMatch(/^1 recipient's send has .* once the broadcast completes/);
    expect(unknownOutcomeWords(1, "COMPLETED").button).toBe("Resend 1 recipient whose outcome is unknown");
  });

  it("words a recipient's unknown outcome, and keeps any other failure as the API says it", () => {
    expect(failureText({ error: "outcome_unknown: ...", error_code: "outcome_unknown" })).toMatch(/^Outcome unknown: may have been sent/);
    expect(failureText({ error: "131026: Message undeliverable", error_code: "131026" })).toBe("131026: Message undeliverable");
  });
});

describe("pollIntervalOf", () => {
  const now = Date.parse("2026-11-25T10:00:00Z");
  it("polls fast while sending or scheduled, slower while late receipts may land, then stops", () => {
    expect(pollIntervalOf({ status: "SENDING", completed_at: null }, now)).toBe(LIVE_POLL_MS);
    expect(pollIntervalOf({ status: "SCHEDULED", completed_at: null }, now)).toBe(LIVE_POLL_MS);
    expect(pollIntervalOf({ status: "COMPLETED", completed_at: "2026-11-25T09:59:30Z" }, now)).toBeGreaterThan(LIVE_POLL_MS);
    expect(pollIntervalOf({ status: "COMPLETED", completed_at: "2026-11-25T09:50:00Z" }, now)).toBe(false);
    expect(pollIntervalOf({ status: "DRAFT", completed_at: null }, now)).toBe(false);
  });
});
