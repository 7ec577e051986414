import type { Metadata } from "next";
import { AuthCard } from "../signin/form-field";
import { SetupForm } from "./setup-form";

export const metadata: Metadata = { title: "Set up · Switchyard" };

export default function SetupPage() {
  return (
    <AuthCard
      title="Welcome to Switchyard"
      intro="Create the owner account. The owner manages users, API keys and settings; there is no default password."
    >
      <SetupForm />
    </AuthCard>
  );
}
