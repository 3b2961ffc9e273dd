import type { ReactNode } from "react";
import { CenteredFrame } from "@/components/shell/centered-frame";

/** Sign-in, first-run setup and invitations: one calm centred column with the wordmark above the card. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return <CenteredFrame>{children}</CenteredFrame>;
}
