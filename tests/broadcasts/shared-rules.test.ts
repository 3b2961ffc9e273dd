import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRecipientsCsv } from "@/components/broadcasts/model/recipients-csv";
import { recipientProblem } from "@/lib/shared/broadcasts/recipients";
import { templateShape } from "@/lib/shared/templates/validate";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createBroadcast, readyChannel, write } from "./support";

/**
 * Issue 32 item 15: a CSV of recipients is judged in the dashboard before upload by the server's own
 * rules (lib/shared/broadcasts/recipients.ts), so each row the server would refuse is named first, by
 * line and column, in the server's words. The same rows go both ways here: through the dashboard's
 * CSV check, and raw (each cell as typed) through POST /broadcasts/{id}/recipients on the real router.
 */
let h: Harness;
let seeded: Seeded;
let broadcastId: string;
let components: unknown[];

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  // One body variable: "Hi {{1}}, our spring sale starts today."
  const ready = await readyChannel(h, seeded.key);
  components = ready.template.components;
  broadcastId = (await createBroadcast(h, seeded.key, { name: "Spring", channel_id: ready.channel.id, template: { id: ready.template.id } })).id;
});
afterAll(() => h.close());

/** The rows of a `phone,1` CSV as the API takes them: the cell as typed, an empty value left out. */
function rawRows(csv: string) {
  return csv
    .split("\n")
    .slice(1)
    .map((line) => {
      const [to, name] = line.split(",");
      return { to: to!, ...(name ? { parameters: { "1": name } } : {}) };
    });
}

describe("a CSV judged before upload and the same rows sent to the server", () => {
  const csv = [
    "phone,1",
    "+1 415 555 0130,Ana",
    "call me maybe,Bo",
    "+14155550131,",
    "0044 20 7946 0131,Cy",
    "12345,Dee",
    "+1415abc0132,Eve",
    "00014155550133,Flo",
  ].join("\n");

  it("refuse the same rows with the same words, and the rows the dashboard uploads are all added", async () => {
    const shape = templateShape(components);
    const parsed = parseRecipientsCsv(csv, shape);

    const raw = await write(h, seeded.key, `/broadcasts/${broadcastId}/recipients`, { recipients: rawRows(csv) });
    expect(raw.status).toBe(200);
    // The server's {index} is the row's place in the call: line = index + 2 (after the header).
    const serverErrors = raw.body.errors.map((e: { index: number; message: string }) => ({ line: e.index + 2, message: e.message }));
    expect(serverErrors.length).toBe(5);
    expect(parsed.errors.map(({ line, message }) => ({ line, message }))).toEqual(serverErrors);
    expect(parsed.errors.map((e) => e.column)).toEqual(["phone", "1", "phone", "phone", "phone"]);
    expect(raw.body.added).toBe(parsed.recipients.length);

    // What the dashboard uploads after its check: nothing refused, each already there from the raw call.
    const uploaded = await write(h, seeded.key, `/broadcasts/${broadcastId}/recipients`, { recipients: parsed.recipients.map((r) => r.recipient) });
    expect(uploaded.body).toMatchObject({ added: 0, duplicates: parsed.recipients.length, errors: [] });
  });

  it("read a number written with 00 as international on both sides", async () => {
    const shape = templateShape(components);
    expect(recipientProblem({ to: "0044 20 7946 0132", parameters: { "1": "Cy" } }, shape)).toBeNull();
    const res = await write(h, seeded.key, `/broadcasts/${broadcastId}/recipients`, { recipients: [{ to: "0044 20 7946 0132", parameters: { "1": "Cy" } }] });
    expect(res.body).toMatchObject({ added: 1, errors: [] });
    const list = await h.app.call("GET", `/broadcasts/${broadcastId}/recipients?limit=100`, { key: seeded.key });
    expect(list.body.data.map((r: { to: string }) => r.to)).toContain("442079460132");
  });
});
