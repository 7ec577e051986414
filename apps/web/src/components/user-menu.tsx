"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import { useTRPC } from "@/trpc/client";

const linkClass =
  "block rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800";

/** Who is signed in, their account pages, and Sign out. */
export function UserMenu() {
  const trpc = useTRPC();
  const status = useQuery(trpc.auth.status.queryOptions());
  // After sign-out a full load to /signin drops every cached query of the old session.
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({ onSettled: () => window.location.assign("/signin") }),
  );
  const user = status.data?.user;
  // The session ended while this page was open (signed out elsewhere, password changed, expired).
  const signedOut = status.data && !status.data.user;
  useEffect(() => {
    if (signedOut)
      window.location.assign(`/signin?next=${encodeURIComponent(location.pathname + location.search)}`);
  }, [signedOut]);
  if (!user) return null;
  return (
    <div className="space-y-1" data-testid="user-menu">
      <div className="px-3 py-1">
        <p className="truncate text-sm font-medium" title={user.email}>
          {user.name || user.email}
        </p>
        <p className="truncate text-xs text-slate-500 dark:text-slate-400">
          {user.name ? `${user.email} · ` : ""}
          {user.role}
        </p>
      </div>
      <Link href="/settings/api-keys" className={linkClass}>
        API keys
      </Link>
      {user.role === "owner" ? (
        <>
          <Link href="/settings/users" className={linkClass}>
            Users
          </Link>
          <Link href="/settings/audit" className={linkClass}>
            Audit log
          </Link>
        </>
      ) : null}
      <button
        type="button"
        className={`${linkClass} w-full text-left`}
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
      >
        Sign out
      </button>
    </div>
  );
}
