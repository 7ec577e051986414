import type { Metadata } from "next";
import { headers } from "next/headers";
import { getCurrentHost } from "@switchyard/runtime/host-registry";
import { AuthCard } from "../signin/form-field";
import { SetupForm } from "./setup-form";

export const metadata: Metadata = { title: "Set up · Switchyard" };

/**
 * The form only for a browser that may create the owner: one on this machine, or one that opened the
 * setup link printed on the console (`/setup?token=…`). `auth.setup` checks the same again.
 */
export default async function SetupPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const { token } = await searchParams;
  const given = typeof token === "string" ? token : undefined;
  const host = getCurrentHost();
  const problem = host
    ? host.auth.setupAccessProblem({
        // A navigation sends no Origin: the page trusts address and host, auth.setup checks the Origin too.
        local: host.auth.http.looksLocal(await headers(), host.config),
        token: given,
      })
    : null;
  return (
    <AuthCard
      title="Welcome to Switchyard"
      intro="Create the owner account. The owner manages users, API keys and settings; there is no default password."
    >
      {problem ? (
        <div className="space-y-3 text-sm">
          <p role="alert" data-testid="setup-token-error" className="text-red-700 dark:text-red-300">
            {problem.message[0]!.toUpperCase() + problem.message.slice(1)}.
          </p>
          <p className="text-slate-600 dark:text-slate-400">
            The link is in the output of <code>switchyard start</code> (it changes at every start). A browser
            on the server itself, at <code>http://localhost</code>, needs no token.
          </p>
        </div>
      ) : (
        <SetupForm token={given} />
      )}
    </AuthCard>
  );
}
