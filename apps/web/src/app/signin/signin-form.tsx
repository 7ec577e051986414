"use client";

import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { buttonClass } from "@/components/page";
import { useHydrated } from "@/components/use-hydrated";
import { safeNext } from "@/server/auth/safe-next";
import { useTRPC } from "@/trpc/client";
import { Field, fieldErrors } from "./form-field";

export function SignInForm({ next }: { next?: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  // A full page load after sign-in: the proxy and every cached query see the new session.
  const signIn = useMutation(
    trpc.auth.signIn.mutationOptions({ onSuccess: () => window.location.assign(safeNext(next)) }),
  );
  const errors = fieldErrors(signIn.error);
  // "invalid e-mail or password" belongs to no single field; it is shown under the password.
  const formError = signIn.error && Object.keys(errors).length === 0 ? signIn.error.message : undefined;

  // The inputs are read when the form is sent, not kept in state: what was typed before the page's script ran (a
  // slow first load) never reached the state, and the button stayed disabled with both fields filled.
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    signIn.mutate({ email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") });
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <Field
        id="email"
        label="E-mail"
        type="email"
        autoComplete="username"
        required
        autoFocus
        error={errors.email}
      />
      <Field
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.password ?? formError}
      />
      <button
        type="submit"
        className={`${buttonClass} w-full justify-center`}
        disabled={!hydrated || signIn.isPending}
      >
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
