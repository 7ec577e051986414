import { EmptyState, PageHeader } from "@/components/page";

export default function AgentsPage() {
  return (
    <div>
      <PageHeader title="Agents" description="Agent definitions from the agents/ folder that agent nodes can use." />
      <EmptyState title="No agent definitions loaded">
        Agent definitions live in <code className="font-mono">agents/&lt;id&gt;/agent.toml</code> and load at start-up.
      </EmptyState>
    </div>
  );
}
