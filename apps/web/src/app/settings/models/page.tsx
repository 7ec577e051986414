import { PageHeader } from "@/components/page";
import { ModelsForm } from "@/components/settings/models-form";

export default function ModelsPage() {
  return (
    <div>
      <PageHeader
        title="Models"
        description="The LLM provider agents call, and which model answers each [model] hint."
      />
      <div className="max-w-3xl px-8 py-6">
        <ModelsForm />
      </div>
    </div>
  );
}
