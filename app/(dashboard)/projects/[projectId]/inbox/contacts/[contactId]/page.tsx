import type { Metadata } from "next";
import { ContactPage } from "@/components/contacts/contact-page";

export const metadata: Metadata = { title: "Contact" };

export default async function Page({ params }: { params: Promise<{ projectId: string; contactId: string }> }) {
  const { projectId, contactId } = await params;
  return <ContactPage projectId={projectId} contactId={contactId} />;
}
