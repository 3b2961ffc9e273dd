"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { RefreshIcon } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import type { Channel } from "@/lib/client/channels";
import { channelLabel } from "@/components/inbox/format";
import { platformLabel } from "@/lib/shared/platforms";
import { isValidCustomerNumber, randomCustomerNumber, type CustomerIdentity } from "./customer-store";

export interface CustomerCardProps {
  identity: CustomerIdentity | null;
  channels: Channel[] | undefined;
  channel: Channel | null;
  onChange: (patch: Partial<CustomerIdentity>) => void;
}

/** Who the phone is: which channel it writes to, its number and the name the business sees. */
export function CustomerCard({ identity, channels, channel, onChange }: CustomerCardProps) {
  const [number, setNumber] = useState(identity?.from ?? "");
  const [name, setName] = useState(identity?.name ?? "");
  const [numberError, setNumberError] = useState<string | null>(null);

  useEffect(() => {
    if (identity) {
      setNumber(identity.from);
      setName(identity.name);
    }
  }, [identity]);

  const commitNumber = () => {
    const value = number.trim().replace(/[\s\-().]/g, "");
    if (value === identity?.from) return;
    if (!isValidCustomerNumber(value)) {
      setNumberError("Use + and 8 to 15 digits, e.g. +15551234567.");
      return;
    }
    const normalized = value.startsWith("+") ? value : `+${value}`;
    setNumberError(null);
    setNumber(normalized);
    onChange({ from: normalized });
  };

  return (
    <Card>
      <CardHeader
        title="The customer"
        description="It opens as the latest tester who joined your project. Any number works in the simulator; it stays in this browser, so you keep the same conversation."
      />
      <CardBody className="space-y-4">
        {!identity || !channels ? (
          <div className="space-y-3">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : (
          <>
            <Field
              label="Channel"
              hint={channel?.is_sandbox ? "The shared sandbox number: every project's testers write to it and join with a code." : undefined}
            >
              <Select value={channel?.id ?? ""} onChange={(event) => onChange({ channelId: event.target.value })}>
                {channels.map((item) => (
                  <option key={item.id} value={item.id}>
                    {channelLabel(item)} · {item.is_sandbox ? "Sandbox" : platformLabel(item.platform)}
                  </option>
                ))}
              </Select>
            </Field>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                commitNumber();
              }}
            >
              <Field label="Customer number" error={numberError}>
                <div className="flex gap-2">
                  <Input
                    mono
                    inputMode="tel"
                    autoComplete="off"
                    value={number}
                    onChange={(event) => {
                      setNumber(event.target.value);
                      setNumberError(null);
                    }}
                    onBlur={commitNumber}
                  />
                  <Button
                    icon={<RefreshIcon />}
                    onClick={() => {
                      const fresh = randomCustomerNumber();
                      setNumber(fresh);
                      setNumberError(null);
                      onChange({ from: fresh });
                    }}
                  >
                    New number
                  </Button>
                </div>
              </Field>
            </form>
            <Field label="Display name" optional hint="The profile name the business receives with each message.">
              <Input
                value={name}
                maxLength={100}
                placeholder="Simulated Customer"
                onChange={(event) => setName(event.target.value)}
                onBlur={() => onChange({ name: name.trim() })}
              />
            </Field>
          </>
        )}
      </CardBody>
    </Card>
  );
}
