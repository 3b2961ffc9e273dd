import { describe, expect, it } from "vitest";
import { BROADCAST_STATUSES } from "@/lib/db/schema/broadcasts";
import { decide, isTerminal, sendTarget, type BroadcastAction } from "@/lib/domain/broadcasts/states";

type Decision = ReturnType<typeof decide>;
type Status = (typeof BROADCAST_STATUSES)[number];

// The whole table of lib/domain/broadcasts/states.ts, written out so a change to one cell is seen.
const TABLE: Record<Status, Record<BroadcastAction, Decision>> = {
  DRAFT: { send: "change", pause: "refuse", cancel: "change", add_recipients: "change", resend_unknown: "refuse" },
  SCHEDULED: { send: "same", pause: "change", cancel: "change", add_recipients: "change", resend_unknown: "refuse" },
  SENDING: { send: "same", pause: "change", cancel: "change", add_recipients: "refuse", resend_unknown: "refuse" },
  PAUSED: { send: "change", pause: "same", cancel: "change", add_recipients: "refuse", resend_unknown: "refuse" },
  COMPLETED: { send: "refuse", pause: "refuse", cancel: "refuse", add_recipients: "refuse", resend_unknown: "change" },
  CANCELLED: { send: "refuse", pause: "refuse", cancel: "same", add_recipients: "refuse", resend_unknown: "refuse" },
  FAILED: { send: "refuse", pause: "refuse", cancel: "refuse", add_recipients: "refuse", resend_unknown: "refuse" },
};

const CASES = BROADCAST_STATUSES.flatMap((status) =>
  (Object.keys(TABLE[status]) as BroadcastAction[]).map((action) => [action, status, TABLE[status][action]] as const),
);

describe("decide", () => {
  it("covers every status of the schema", () => {
    expect(Object.keys(TABLE).sort()).toEqual([...BROADCAST_STATUSES].sort());
    expect(CASES).toHaveLength(BROADCAST_STATUSES.length * 5);
  });

  it.each(CASES)("%s on a %s broadcast is %s", (action, status, expected) => {
    expect(decide(action, status)).toBe(expected);
  });
});

describe("isTerminal", () => {
  it.each(BROADCAST_STATUSES.map((s) => [s, ["COMPLETED", "CANCELLED", "FAILED"].includes(s)] as const))("%s is terminal: %s", (status, terminal) => {
    expect(isTerminal(status)).toBe(terminal);
  });
});

describe("sendTarget", () => {
  const now = new Date("2026-06-18T10:00:00.000Z");
  const ahead = new Date("2026-06-18T10:00:00.001Z");
  const behind = new Date("2026-06-18T09:59:59.999Z");

  it("schedules a DRAFT whose send_at is ahead", () => {
    expect(sendTarget("DRAFT", ahead, now)).toBe("SCHEDULED");
  });

  it("sends a DRAFT now without send_at, with send_at passed, or with send_at exactly now", () => {
    expect(sendTarget("DRAFT", null, now)).toBe("SENDING");
    expect(sendTarget("DRAFT", behind, now)).toBe("SENDING");
    expect(sendTarget("DRAFT", new Date(now), now)).toBe("SENDING");
  });

  it.each(BROADCAST_STATUSES.filter((s) => s !== "DRAFT"))("sends a %s broadcast now whatever its send_at (a resume is never rescheduled)", (status) => {
    expect(sendTarget(status, ahead, now)).toBe("SENDING");
    expect(sendTarget(status, null, now)).toBe("SENDING");
  });
});
