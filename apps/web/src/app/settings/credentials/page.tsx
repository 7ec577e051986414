"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PageHeader } from "@/components/page";
import { CredentialForm } from "@/components/settings/credential-form";
import { CredentialList } from "@/components/settings/credential-list";
import { Notice, Section } from "@/components/settings/ui";
import { useTRPC } from "@/trpc/client";

export default function CredentialsPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const me = useQuery(trpc.auth.status.queryOptions());
  const role = me.data?.user?.role;
  const [saved, setSaved] = useState<string>();
  return (
    <div>
      <PageHeader
        title="Credentials"
        description="Tokens, passwords and keys, encrypted at rest. Nodes and the LLM provider use them by name; nobody can read them back."
      />
      <div className="max-w-4xl space-y-6 px-8 py-6">
        {role === "owner" || role === "editor" ? (
          <Section title="New credential">
            <CredentialForm
              onCreated={(name) => {
                setSaved(name);
                void qc.invalidateQueries({ queryKey: trpc.credential.list.queryKey() });
              }}
            />
            {saved ? (
              <div role="status">
                <Notice tone="success">
                  Saved “{saved}”. Its values are stored encrypted and will not be shown again.
                </Notice>
              </div>
            ) : null}
          </Section>
        ) : role ? (
          <Notice>Only owners and editors can add credentials.</Notice>
        ) : null}
        <CredentialList canDelete={role === "owner"} canEditHosts={role === "owner"} />
      </div>
    </div>
  );
}
