import { AgentList } from "@/components/agents/agent-list";
import { PageHeader } from "@/components/page";

export default function AgentsPage() {
  return (
    <div>
      <PageHeader
        title="Agents"
        description="Agent definitions from the agents/ folder that agent nodes can use. They are edited as files and load at start-up."
      />
      <div className="px-8 py-6">
        <AgentList />
      </div>
    </div>
  );
}
