"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { buttonClass } from "@/components/page";
import { safeNext } from "@/server/auth/safe-next";
import { useTRPC } from "@/trpc/client";
import { Field, fieldErrors } from "./form-field";

export function SignInForm({ next }: { next?: string }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // A full page load after sign-in: the proxy and every cached query see the new session.
  const signIn = useMutation(
    trpc.auth.signIn.mutationOptions({ onSuccess: () => window.location.assign(safeNext(next)) }),
  );
  const errors = fieldErrors(signIn.error);
  // "invalid e-mail or password" belongs to no single field; it is shown under the password.
  const formError = signIn.error && Object.keys(errors).length === 0 ? signIn.error.message : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate({ email, password });
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
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
      />
      <Field
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password ?? formError}
      />
      <button
        type="submit"
        className={`${buttonClass} w-full justify-center`}
        disabled={signIn.isPending || !email || !password}
      >
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
