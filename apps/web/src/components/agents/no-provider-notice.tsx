import Link from "next/link";
import { Notice } from "@/components/settings/ui";

/** Shown while no LLM provider is saved: what still works and where to fix it. */
export function NoProviderNotice({ isOwner }: { isOwner: boolean }) {
  return (
    <div data-testid="no-provider">
      <Notice tone="warning">
        <strong>No LLM provider is configured.</strong> Retrieval agents (marked “works without a model”)
        still answer from memory in retrieval-only mode; every other agent step fails until a provider is set
        {isOwner ? (
          <>
            {" "}
            in{" "}
            <Link href="/settings/models" className="underline">
              Settings › Models
            </Link>
          </>
        ) : (
          " by an owner in Settings › Models"
        )}
        .
      </Notice>
    </div>
  );
}
