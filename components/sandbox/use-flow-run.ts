"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { FlowAction } from "@/components/flow-render/flow-screen-view";
import { screensOf } from "@/components/flow-render/flow-json-read";
import { useFlowExchange, useReceivedFlow, type FlowExchangeAction } from "@/lib/client/sandbox";
import { answerOf, screenIds, type FlowAnswer, type FlowStep, type ReceivedFlowMessage } from "./received-flow";

type Obj = Record<string, unknown>;

export interface FlowRunOptions {
  projectId: string;
  channelId: string;
  from: string;
  message: ReceivedFlowMessage;
  /** Sends the completion with these values; throws when it could not. */
  onComplete: (response: Obj) => Promise<void>;
}

/**
 * The customer's way through one received flow: loads its Flow JSON, opens the first screen (from
 * the message, or from the data endpoint's INIT for a data_exchange flow), then follows each Footer:
 * navigate stacks the next screen with its payload as data, data_exchange asks the endpoint for the
 * next screen ("SUCCESS" completes), complete submits. Back pops a screen (asking the endpoint first
 * when the screen says refresh_on_back).
 */
export function useFlowRun({ projectId, channelId, from, message, onComplete }: FlowRunOptions) {
  const flow = useReceivedFlow(projectId, { channel_id: channelId, from, flowId: message.flowId });
  const { mutateAsync: exchange } = useFlowExchange(projectId);
  const [stack, setStack] = useState<FlowStep[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The provider's app refuses to open a flow the business deprecated or that was blocked.
  const unavailable = flow.data?.status === "DEPRECATED" || flow.data?.status === "BLOCKED" ? flow.data.status : null;
  const flowJson = (!unavailable && flow.data?.flow_json) || null;
  const busyRef = useRef(false);

  const perform = useCallback(async (task: () => Promise<void>) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "Something went wrong.");
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }, []);

  const ask = useCallback(
    async (action: FlowExchangeAction, screen?: string, data?: Obj): Promise<FlowAnswer> => {
      const result = await exchange({
        channel_id: channelId,
        from,
        flowId: message.flowId,
        flow_token: message.flowToken,
        action,
        ...(screen ? { screen } : {}),
        ...(data ? { data } : {}),
      });
      return answerOf(result, flowJson ?? {});
    },
    [exchange, channelId, from, message.flowId, message.flowToken, flowJson],
  );

  /** Shows an answer in place of the top `replace` screens (0: on top), or completes the flow. */
  const follow = useCallback(
    async (answer: FlowAnswer, replace: number) => {
      if (answer.kind === "success") return onComplete(answer.params);
      setStack((current) => {
        const kept = current.slice(0, current.length - replace);
        // The same screen again (the endpoint's validation errors) refreshes it instead of stacking it twice.
        return kept.at(-1)?.screen === answer.step.screen ? [...kept.slice(0, -1), answer.step] : [...kept, answer.step];
      });
      if (answer.notice) setError(answer.notice);
    },
    [onComplete],
  );

  const start = useCallback(
    () =>
      perform(async () => {
        if (!flowJson) return;
        if (message.flowAction === "data_exchange") return follow(await ask("INIT"), 0);
        const first = message.screen ?? screenIds(flowJson)[0];
        if (!first) throw new Error("This flow has no screens.");
        setStack([{ screen: first, data: message.data ?? {} }]);
      }),
    [perform, flowJson, message, follow, ask],
  );

  const started = useRef(false);
  useEffect(() => {
    if (!flowJson || started.current) return;
    started.current = true;
    void start();
  }, [flowJson, start]);

  const current = stack.at(-1) ?? null;

  const act = (action: FlowAction) => {
    if (!current || !flowJson) return;
    if (action.name === "navigate") {
      if (!screenIds(flowJson).includes(action.next)) return setError(`This flow has no screen “${action.next}”.`);
      setError(null);
      setStack((steps) => [...steps, { screen: action.next, data: action.payload }]);
    } else if (action.name === "complete") {
      void perform(() => onComplete(action.payload));
    } else {
      void perform(async () => follow(await ask("data_exchange", current.screen, action.payload), 0));
    }
  };

  /** One screen back; false on the first screen (the caller closes the flow). */
  const back = (): boolean => {
    if (!current || stack.length <= 1 || !flowJson) return false;
    if (busyRef.current) return true;
    const raw = screensOf(flowJson).find((screen) => screen.id === current.screen);
    if (raw?.refresh_on_back === true && flow.data?.has_endpoint) {
      void perform(async () => follow(await ask("BACK", current.screen), 2));
    } else {
      setError(null);
      setStack((steps) => steps.slice(0, -1));
    }
    return true;
  };

  return { flow, unavailable, current, depth: stack.length, busy, error, act, back, retry: start };
}
