import type { FlowDraft } from "@/lib/client/flows";

/**
 * What "New flow" starts with: two screens, the first collecting a name and an email and navigating
 * to the second, which asks for consent and completes. Valid as it stands, so it can be published at
 * once and then reshaped.
 */
export function starterDraft(): FlowDraft {
  return {
    entryScreenId: "DETAILS",
    screens: [
      {
        id: "DETAILS",
        title: "Your details",
        body: "Tell us how to reach you.",
        fields: [
          { name: "full_name", type: "text", label: "Full name", required: true },
          { name: "email", type: "email", label: "Email", required: true },
        ],
        next: "CONFIRM",
        submit_label: "Continue",
      },
      {
        id: "CONFIRM",
        title: "Confirm",
        body: "One last step.",
        fields: [{ name: "marketing_opt_in", type: "optin", label: "Send me updates" }],
        submit_label: "Submit",
      },
    ],
  };
}
