import { PageHeader } from "@/components/page";
import { NetworkForm } from "@/components/settings/network-form";

export default function NetworkPage() {
  return (
    <div>
      <PageHeader
        title="Network"
        description="Outbound requests from flows and agents are refused for private, loopback and metadata addresses unless the host is listed here."
      />
      <div className="max-w-3xl px-8 py-6">
        <NetworkForm />
      </div>
    </div>
  );
}
