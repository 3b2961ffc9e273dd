"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { Badge, PlatformName, Time } from "@/components/ui";
import type { Contact } from "@/lib/client/contacts";
import { useContactConversations, useContactRegistration, useContactSubmissions } from "@/lib/client/inbox-contact";
import { contactLabel } from "./format";

const inboxHref = (projectId: string, conversationId: string) => `/projects/${encodeURIComponent(projectId)}/inbox?c=${encodeURIComponent(conversationId)}`;
const contactHref = (projectId: string, contactId: string) => `/projects/${encodeURIComponent(projectId)}/inbox/contacts/${encodeURIComponent(contactId)}`;

/** The contact's facts, conversations and flow submissions: the inbox's panel and the contact's page share it. */
export function ContactDetails({ projectId, contact, currentConversationId }: { projectId: string; contact: Contact; currentConversationId?: string }) {
  const registration = useContactRegistration(projectId, contact.id, contact.reference_id);
  return (
    <div className="space-y-5 text-sm">
      <dl className="grid grid-cols-[7.5rem_1fr] gap-x-3 gap-y-2">
        <Detail term="Name">{contact.name ?? "—"}</Detail>
        <Detail term="Identifiers">
          <span className="block text-xs text-slate-500">
            {contact.channel.display_name || contact.channel.id} · <PlatformName code={contact.channel.platform} showCode={false} />
          </span>
          {contact.phone && <span className="block font-mono">{contact.phone}</span>}
          {contact.user_id && <span className="block font-mono text-xs">user {contact.user_id}</span>}
          {contact.username && <span className="block">@{contact.username}</span>}
        </Detail>
        <Detail term="Language">{contact.preferred_language ?? "—"}</Detail>
        <Detail term="Opt-in">
          {contact.opt_in ? (
            <>
              <Badge tone={contact.opt_in.status === "active" ? "success" : "neutral"}>{contact.opt_in.status}</Badge>
              <span className="mt-0.5 block text-xs text-slate-500">
                {contact.opt_in.source} · <Time value={contact.opt_in.opted_in_at} />
              </span>
            </>
          ) : (
            "none"
          )}
        </Detail>
        <Detail term="Registration reference">
          {contact.reference_id ? <span className="font-mono text-xs">{contact.reference_id}</span> : "—"}
          {registration.data && (
            <span className="block text-xs text-slate-500">
              Registered <Time value={registration.data.completed_at ?? registration.data.created_at} /> ({registration.data.mode})
            </span>
          )}
        </Detail>
        <Detail term="First seen">
          <Time value={contact.created_at} />
        </Detail>
        <Detail term="Contact id">
          <span className="font-mono text-xs">{contact.id}</span>
        </Detail>
      </dl>
      <RecentConversations projectId={projectId} contactId={contact.id} currentConversationId={currentConversationId} />
      <Submissions projectId={projectId} contactId={contact.id} />
      <Link
        href={contactHref(projectId, contact.id)}
        className="inline-block text-sm font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        Open the contact&apos;s page
      </Link>
    </div>
  );
}

function RecentConversations({ projectId, contactId, currentConversationId }: { projectId: string; contactId: string; currentConversationId?: string }) {
  const conversations = useContactConversations(projectId, contactId);
  return (
    <Section title="Conversations">
      {conversations.isPending ? (
        <p className="text-xs text-slate-500">Loading…</p>
      ) : conversations.error ? (
        <p className="text-xs text-red-600">Couldn&apos;t load: {conversations.error.message}</p>
      ) : (
        <ul className="space-y-1">
          {(conversations.data ?? []).map((conversation) => (
            <li key={conversation.id} className="flex items-baseline justify-between gap-2 text-xs">
              {conversation.id === currentConversationId ? (
                <span className="font-medium text-slate-900">{contactLabel(conversation)} (open)</span>
              ) : (
                <Link href={inboxHref(projectId, conversation.id)} className="text-indigo-700 underline-offset-2 hover:underline">
                  {contactLabel(conversation)}
                </Link>
              )}
              <Time value={conversation.last_message_at ?? conversation.started_at} className="shrink-0 text-slate-500" />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Submissions({ projectId, contactId }: { projectId: string; contactId: string }) {
  const submissions = useContactSubmissions(projectId, contactId);
  return (
    <Section title="Flow submissions">
      {submissions.isPending ? (
        <p className="text-xs text-slate-500">Loading…</p>
      ) : submissions.error ? (
        <p className="text-xs text-slate-600">Couldn&apos;t load them: {submissions.error.message}</p>
      ) : submissions.data.length === 0 ? (
        <p className="text-xs text-slate-500">None in the project&apos;s 20 newest flows.</p>
      ) : (
        <ul className="space-y-2">
          {submissions.data.slice(0, 5).map((submission) => (
            <li key={submission.id} className="rounded-md bg-slate-50 px-2 py-1.5 text-xs ring-1 ring-slate-200">
              <span className="flex justify-between gap-2">
                <Link
                  href={`/projects/${encodeURIComponent(projectId)}/flows/${encodeURIComponent(submission.flow_id)}`}
                  className="font-medium text-indigo-700 hover:underline"
                >
                  {submission.flow_name}
                </Link>
                <Time value={submission.created_at} className="text-slate-500" />
              </span>
              <span className="mt-0.5 block truncate font-mono text-[11px] text-slate-600">{JSON.stringify(submission.submission)}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}
