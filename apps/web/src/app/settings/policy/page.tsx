import { PageHeader } from "@/components/page";
import { PolicyEditor } from "@/components/settings/policy-editor";

export default function PolicyPage() {
  return (
    <div>
      <PageHeader
        title="Agent policy"
        description="Permission ceilings per channel: what an agent step may do depends on what started the run."
      />
      <div className="max-w-5xl px-8 py-6">
        <PolicyEditor />
      </div>
    </div>
  );
}
