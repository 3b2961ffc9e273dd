import type { ReactNode } from "react";
import { CenteredFrame } from "@/components/shell/centered-frame";

/** Pages the svc CLI sends the operator to: outside any project, so no dashboard shell; wider than sign-in for the scope list. */
export default function CliLayout({ children }: { children: ReactNode }) {
  return <CenteredFrame wide>{children}</CenteredFrame>;
}
