import { FormError } from "@/components/ui";
import { isApiError } from "@/lib/client/api";

/**
 * A refused run: the message, and for invalid_request each issue by its path (`arguments.city`), so
 * arguments that miss the input_schema say which field and why.
 */
export function RunError({ error }: { error: Error | null }) {
  if (!error) return null;
  const issues = isApiError(error) && error.issues ? Object.entries(error.issues) : [];
  return (
    <FormError>
      {error.message}
      {issues.length > 0 && (
        <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="run-issues">
          {issues.map(([path, messages]) => (
            <li key={path}>
              <code className="font-mono text-[12px]">{path}</code>: {messages.join("; ")}
            </li>
          ))}
        </ul>
      )}
    </FormError>
  );
}
