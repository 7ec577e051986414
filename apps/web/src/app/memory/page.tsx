import { EmptyState, PageHeader } from "@/components/page";

export default function MemoryPage() {
  return (
    <div>
      <PageHeader title="Memory" description="What your automations know: notes, conversations, contacts, profile." />
      <EmptyState title="Memory is empty">
        Import notes, transcripts or contacts with <code className="font-mono">switchyard memory import &lt;path&gt;</code>.
        Agents read memory; they never write it.
      </EmptyState>
    </div>
  );
}
