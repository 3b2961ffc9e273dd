import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import { AGENT_RESPOND_JOB } from "@/lib/domain/agents/respond";
import { AUTOMATION_EVALUATE_JOB, AUTOMATION_RESUME_JOB, AUTOMATION_STEP_JOB } from "@/lib/domain/automations/runs";
import { BROADCAST_RUN_JOB } from "@/lib/domain/broadcasts/run-job-name";
import { BROADCAST_RELEASE_JOB } from "@/lib/domain/broadcasts/leftovers";
import { MEDIA_EXPIRE_JOB, MEDIA_RELEASE_JOB } from "@/lib/domain/media/cache";
import type { PROVIDER_SEND_JOB } from "@/lib/domain/messages/provider-send";
import { JOBS } from "@/lib/jobs";
import type { JobName, JobPayload, TypedJobQueue } from "@/lib/jobs/catalog";
import { JobPayloadError, runJob } from "@/lib/jobs/define";
import { servicesOf } from "@/lib/server/runtime";
import { createTestApp, type TestApp } from "../support/app";

/**
 * lib/jobs/catalog.ts ties each job name to its schema's input at every send. The compile-time half
 * of this file is checked by `npm run typecheck` (tsc covers tests/): each `@ts-expect-error` below
 * fails the typecheck if the send it marks compiles. The run-time half shows the guard behind it: a
 * payload forced past the compiler still fails at run with JobPayloadError, and a payload in the
 * shape the previous release enqueued (snake_case keys) still runs.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const run = { id: "job-1", retryCount: 0, retryLimit: 3 };

/** The JobPayloadErrors the workers logged while `act` ran (a failed job is logged, then recorded as failed). */
async function payloadErrorsDuring(act: () => Promise<void>): Promise<JobPayloadError[]> {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await act();
    return errors.mock.calls.flat().filter((arg): arg is JobPayloadError => JobPayloadError.is(arg));
  } finally {
    errors.mockRestore();
  }
}

describe("the job catalog at compile time", () => {
  it("gives each job its schema's input, under the job's own name", () => {
    expectTypeOf<JobPayload<typeof AGENT_RESPOND_JOB>>().toEqualTypeOf<{ messageId: string }>();
    expectTypeOf<JobPayload<typeof PROVIDER_SEND_JOB>>().toEqualTypeOf<{ messageId: string; paced?: boolean | undefined }>();
    expectTypeOf<JobPayload<typeof BROADCAST_RUN_JOB>>().toEqualTypeOf<{ broadcastId: string; generation: number }>();
    expectTypeOf<JobPayload<typeof AUTOMATION_RESUME_JOB>>().toEqualTypeOf<{ runId: string; stepIndex: number }>();
    // A name the workers do not define is no job: send refuses it.
    expectTypeOf<"agents.reply">().not.toExtend<JobName>();
    expectTypeOf<"agents.reply">().not.toExtend<Parameters<TypedJobQueue["send"]>[0]>();
    expectTypeOf<"agents.reply">().not.toExtend<Parameters<TypedJobQueue["sendOnce"]>[0]>();
    const queue = app.runtime.ports.queue;
    expectTypeOf(() =>
      // @ts-expect-error an unknown job name
      queue.send("media.expired", {}),
    ).toBeFunction();
    expectTypeOf(() =>
      // @ts-expect-error an unknown job name
      queue.sendOnce("media.expire-all", {}, { singletonKey: "x" }),
    ).toBeFunction();
  });

  it("refuses a wrong field, a missing field and an old key; forced past the compiler, the payload fails at run", async () => {
    const queue = app.runtime.ports.queue;
    const errors = await payloadErrorsDuring(async () => {
      // @ts-expect-error a wrong field: eventId is a string
      await queue.send(MEDIA_RELEASE_JOB, { eventId: 42 });
      // @ts-expect-error a missing field: eventId
      await queue.send(MEDIA_RELEASE_JOB, {});
      // @ts-expect-error a field of another job: media.release takes eventId
      await queue.send(MEDIA_RELEASE_JOB, { mediaId: "med_1" });
      // @ts-expect-error the key before issue 33: new sends use messageId
      await queue.sendOnce(AGENT_RESPOND_JOB, { message_id: 42 }, { singletonKey: "job-catalog-old-key" });
      expect(await queue.drain()).toBe(4);
    });
    // The queue drains its queues in no set order: compared sorted.
    expect(errors.map((error) => `${error.job} ${error.issues.map((issue) => issue.split(":")[0]).join()}`).sort()).toEqual([
      `${AGENT_RESPOND_JOB} messageId`,
      `${MEDIA_RELEASE_JOB} eventId`,
      `${MEDIA_RELEASE_JOB} eventId`,
      `${MEDIA_RELEASE_JOB} eventId`,
    ]);
    // The right shape compiles and runs (media.expire is a real maintenance pass).
    await queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: "job-catalog-media-expire" });
    expect(await payloadErrorsDuring(async () => void (await queue.drain()))).toEqual([]);
  });
});

describe("payloads enqueued by the previous release (snake_case keys)", () => {
  const previous: [name: string, old: object, now: object][] = [
    [AGENT_RESPOND_JOB, { message_id: "msg_old" }, { messageId: "msg_old" }],
    [AUTOMATION_EVALUATE_JOB, { message_id: "msg_old" }, { messageId: "msg_old" }],
    [AUTOMATION_STEP_JOB, { run_id: "arun_old" }, { runId: "arun_old" }],
    [AUTOMATION_RESUME_JOB, { run_id: "arun_old", step_index: 2 }, { runId: "arun_old", stepIndex: 2 }],
    [BROADCAST_RUN_JOB, { broadcast_id: "bc_old", generation: 3 }, { broadcastId: "bc_old", generation: 3 }],
    [BROADCAST_RELEASE_JOB, { broadcast_id: "bc_old" }, { broadcastId: "bc_old" }],
  ];

  it.each(previous)("%s reads the old keys as the new ones", (name, old, now) => {
    const job = JOBS.find((definition) => definition.name === name)!;
    expect(job.schema.parse(old)).toEqual(now);
    // A payload with both (never written, but possible by hand): the new key wins.
    const stale = Object.fromEntries(Object.keys(old).flatMap((key) => (key in now ? [] : [[key, "stale"]])));
    expect(job.schema.parse({ ...now, ...stale })).toEqual(now);
  });

  it("each renamed job's handler runs on an old payload (no payload error), refuses one with neither key", async () => {
    for (const [name, old] of previous) {
      const job = JOBS.find((definition) => definition.name === name)!;
      const outcome = await runJob(job, servicesOf(app.runtime), old, run).then(
        () => null,
        (error: unknown) => error,
      );
      expect(JobPayloadError.is(outcome), `${name}: ${String(outcome)}`).toBe(false);
      const empty = await runJob(job, servicesOf(app.runtime), {}, run).catch((error: unknown) => error);
      expect(JobPayloadError.is(empty), name).toBe(true);
    }
  });
});
