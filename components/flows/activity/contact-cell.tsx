import Link from "next/link";
import { projectPath } from "@/components/shell/nav-links";

/** Who a dispatch or submission is about: the number, linked to its inbox conversation when there is one. */
export function ContactCell({
  projectId,
  phone,
  contactId,
  conversationId,
}: {
  projectId: string;
  phone: string | null;
  contactId: string | null;
  conversationId: string | null;
}) {
  const text = phone ?? contactId ?? "—";
  if (!conversationId) return <span className="font-mono text-[13px]">{text}</span>;
  return (
    <Link href={`${projectPath(projectId, "inbox")}?c=${encodeURIComponent(conversationId)}`} className="font-mono text-[13px] text-indigo-700 hover:underline">
      {text}
    </Link>
  );
}
