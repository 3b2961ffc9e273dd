"use client";

import Link from "next/link";
import { projectPath } from "@/components/shell/nav-links";
import { Field, Input, Select } from "@/components/ui";
import { useFlow, useFlows } from "@/lib/client/flows";
import { flowScreenIds } from "../model/flow-screens";
import { FLOW_ACTIONS, type FlowAction } from "../model/vocabulary";
import type { ButtonFieldsProps } from "./button-card";

const ACTION_LABELS: Record<FlowAction, string> = {
  navigate: "Open a screen (navigate)",
  data_exchange: "Ask your endpoint (data_exchange)",
};

interface ScreenFieldProps {
  projectId: string;
  flowId: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

function ScreenInput({ value, onChange, error, screens }: Omit<ScreenFieldProps, "projectId" | "flowId"> & { screens: string[] }) {
  return (
    <Field label="Screen" error={error} hint="The screen the button opens.">
      {screens.length > 0 ? (
        <Select value={screens.includes(value) ? value : ""} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose a screen</option>
          {screens.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </Select>
      ) : (
        <Input value={value} onChange={(e) => onChange(e.target.value)} mono placeholder="WELCOME" spellCheck={false} />
      )}
    </Field>
  );
}

/** The chosen flow's screens from its Flow JSON; typed by hand while they load or when there are none. */
function FlowScreens({ projectId, flowId, ...rest }: ScreenFieldProps) {
  const flow = useFlow(projectId, flowId);
  return <ScreenInput {...rest} screens={flowScreenIds(flow.data?.flow_json)} />;
}

function ScreenField(props: ScreenFieldProps) {
  return props.flowId ? <FlowScreens {...props} /> : <ScreenInput {...props} screens={[]} />;
}

/**
 * A FLOW button: one of the project's PUBLISHED flows (the server maps it to the provider's flow),
 * the action, and for navigate the screen it opens.
 */
export function FlowButtonFields({ button, onChange, errorOf, projectId }: ButtonFieldsProps & { projectId: string }) {
  const flows = useFlows(projectId);
  const published = (flows.data?.pages.flatMap((page) => page.data) ?? []).filter((flow) => flow.status === "PUBLISHED");
  return (
    <>
      <Field
        label="Flow"
        error={errorOf("flow_id") ?? errorOf("flow_name")}
        hint={
          flows.isSuccess && published.length === 0 ? (
            <>
              No published flow yet:{" "}
              <Link href={projectPath(projectId, "flows")} className="font-medium text-indigo-700 hover:text-indigo-600">
                publish one on Flows
              </Link>
              .
            </>
          ) : (
            "Published flows of this project."
          )
        }
      >
        <Select value={button.flowId} onChange={(e) => onChange({ flowId: e.target.value, navigateScreen: "" })}>
          <option value="">{flows.isPending ? "Loading flows…" : "Choose a flow"}</option>
          {published.map((flow) => (
            <option key={flow.id} value={flow.id}>
              {flow.name}
              {flow.locale ? ` (${flow.locale})` : ""}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Flow action" error={errorOf("flow_action")}>
        <Select value={button.flowAction} onChange={(e) => onChange({ flowAction: e.target.value as FlowAction })}>
          {FLOW_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {ACTION_LABELS[action]}
            </option>
          ))}
        </Select>
      </Field>
      {button.flowAction === "navigate" && (
        <ScreenField
          projectId={projectId}
          flowId={button.flowId}
          value={button.navigateScreen}
          onChange={(navigateScreen) => onChange({ navigateScreen })}
          error={errorOf("navigate_screen")}
        />
      )}
    </>
  );
}
