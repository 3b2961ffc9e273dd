import { isRecord } from "@/lib/json";

/**
 * What the business's data_exchange_url may answer (docs/spec/decisions.md "Flows", DATA_EXCHANGE):
 * `{screen: <a screen of the flow>, data}` to show a screen, or `{screen: "SUCCESS", data:
 * {extension_message_response: {params: {flow_token, ...}}}}` to close the flow. Anything else would
 * make the customer's flow fail on the provider's side, so it is refused here with a reason the
 * operator can act on. Only `screen` and `data` are passed on.
 */
interface BusinessAnswer {
  screen: string;
  data: Record<string, unknown>;
}

export type AnswerCheck = { ok: true; answer: BusinessAnswer } | { ok: false; reason: string };

const SUCCESS_SCREEN = "SUCCESS";

function checkSuccess(data: Record<string, unknown>, flowToken: string): AnswerCheck {
  const response = data.extension_message_response;
  const params = isRecord(response) ? response.params : undefined;
  if (!isRecord(params)) return { ok: false, reason: "a SUCCESS answer needs data.extension_message_response.params (an object)" };
  if (params.flow_token !== flowToken)
    return { ok: false, reason: "a SUCCESS answer's data.extension_message_response.params.flow_token must be the request's flow_token" };
  return { ok: true, answer: { screen: SUCCESS_SCREEN, data } };
}

export function checkBusinessAnswer(value: unknown, expected: { screenIds: readonly string[]; flowToken: string }): AnswerCheck {
  if (!isRecord(value)) return { ok: false, reason: "the answer is not a JSON object" };
  const { screen } = value;
  if (typeof screen !== "string" || screen === "") return { ok: false, reason: "the answer has no screen (a string)" };
  const data = value.data === undefined ? {} : value.data;
  if (!isRecord(data)) return { ok: false, reason: "the answer's data is not an object" };
  if (screen === SUCCESS_SCREEN) return checkSuccess(data, expected.flowToken);
  if (!expected.screenIds.includes(screen)) {
    return { ok: false, reason: `the answer names screen "${screen}", which the flow does not have (screens: ${expected.screenIds.join(", ") || "none"})` };
  }
  return { ok: true, answer: { screen, data } };
}
