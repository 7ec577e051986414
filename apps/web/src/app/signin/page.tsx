import type { Metadata } from "next";
import { AuthCard } from "./form-field";
import { SignInForm } from "./signin-form";

export const metadata: Metadata = { title: "Sign in · Switchyard" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const { next } = await searchParams;
  return (
    <AuthCard title="Sign in" intro="Use the e-mail address and password of your Switchyard account.">
      <SignInForm next={typeof next === "string" ? next : undefined} />
    </AuthCard>
  );
}
