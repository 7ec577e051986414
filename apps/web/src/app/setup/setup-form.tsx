"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { buttonClass } from "@/components/page";
import { useHydrated } from "@/components/use-hydrated";
import { useTRPC } from "@/trpc/client";
import { Field, fieldErrors } from "../signin/form-field";

const minLength = 12;

/** `token`: the one-time setup token from the console's link, when the page was opened with one. */
export function SetupForm({ token }: { token?: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [confirmError, setConfirmError] = useState<string>();
  const setup = useMutation(
    trpc.auth.setup.mutationOptions({ onSuccess: () => window.location.assign("/flows") }),
  );
  const errors = fieldErrors(setup.error);
  const formError = setup.error && Object.keys(errors).length === 0 ? setup.error.message : undefined;

  // Read when sent, not kept in state: what was typed before the page's script ran stays in the inputs (signin-form.tsx).
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const field = (k: string) => String(data.get(k) ?? "");
    const form = {
      name: field("name"),
      email: field("email"),
      password: field("password"),
      confirm: field("confirm"),
    };
    if (form.password !== form.confirm) {
      setConfirmError("the passwords do not match");
      return;
    }
    setConfirmError(undefined);
    setup.mutate({ name: form.name, email: form.email, password: form.password, token });
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <Field id="name" label="Your name (optional)" autoComplete="name" error={errors.name} />
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
        autoComplete="new-password"
        required
        error={errors.password}
        hint={`At least ${minLength} characters. A few unrelated words make a good one.`}
      />
      <Field
        id="confirm"
        label="Repeat the password"
        type="password"
        autoComplete="new-password"
        required
        error={confirmError ?? formError}
      />
      <button
        type="submit"
        className={`${buttonClass} w-full justify-center`}
        disabled={!hydrated || setup.isPending}
      >
        {setup.isPending ? "Creating…" : "Create owner account"}
      </button>
    </form>
  );
}
