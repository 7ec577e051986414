import { FlowSettings, type Problem } from "@switchyard/contracts/flow";
import type { FlowRepo } from "@switchyard/db";
import { errorTrigger } from "@switchyard/nodes";
import type { FlowCache } from "./flow-cache";

/**
 * Save-time checks of a flow's failure settings that need other flows and the vault: the error flow
 * exists, is not this flow and starts with an error trigger; the failure e-mail's credential is SMTP.
 */
export async function errorSettingsProblems(
  definition: unknown,
  flowId: string | undefined,
  d: { flows: FlowRepo; cache: FlowCache; credentialType(id: string): Promise<string | undefined> },
): Promise<Problem[]> {
  const raw = (definition as { settings?: unknown } | null)?.settings;
  const parsed = FlowSettings.safeParse(raw ?? {});
  // A malformed settings object is validateFlow's to report.
  if (!parsed.success) return [];
  const { errorFlowId, failureEmail } = parsed.data;
  const problems: Problem[] = [];
  const problem = (field: string, message: string) =>
    problems.push({
      code: "config_invalid",
      field: `settings.${field}`,
      message: `settings.${field}: ${message}`,
    });
  if (errorFlowId !== undefined) {
    const target = errorFlowId === flowId ? undefined : await d.flows.get(errorFlowId);
    if (errorFlowId === flowId) problem("errorFlowId", "a flow cannot be its own error flow");
    else if (!target) problem("errorFlowId", `flow ${errorFlowId} does not exist`);
    else {
      const compiled = await d.cache.get(target.id, target.currentVersion).catch(() => undefined);
      if (!compiled?.flow.nodes.some((n) => n.type === errorTrigger.type))
        problem(
          "errorFlowId",
          `flow "${target.name}" has no Error trigger, so it cannot be started by a failure`,
        );
    }
  }
  if (failureEmail) {
    const type = await d.credentialType(failureEmail.credentialId);
    if (type === undefined)
      problem("failureEmail.credentialId", `credential ${failureEmail.credentialId} does not exist`);
    else if (type !== "smtp")
      problem(
        "failureEmail.credentialId",
        `credential ${failureEmail.credentialId} is ${type}, not an SMTP server`,
      );
  }
  return problems;
}
