import type { FlowNode, Problem, SecretsReader } from "@switchyard/engine";
import type { WebhookAuth } from "@switchyard/contracts/triggers";
import { webhookTrigger } from "@switchyard/nodes";

/**
 * Which credential types each auth mode accepts, and the field of each that holds what callers must
 * present. A credential of any other type is refused: reading its missing fields as "" once let a
 * request with no header through (#18).
 */
const accepted = {
  header: { webhookSecret: ["secret"], httpHeader: ["value"], httpBearer: ["token"] },
  basic: { httpBasic: ["user", "password"] },
  hmac: { webhookSecret: ["secret"] },
} as const satisfies Record<Exclude<WebhookAuth["type"], "none">, Record<string, readonly string[]>>;

export class WebhookCredentialError extends Error {
  override name = "WebhookCredentialError";
}

/** The credential's fields this auth mode uses, each non-empty; throws a WebhookCredentialError saying why not. */
export async function webhookSecrets(
  auth: Exclude<WebhookAuth, { type: "none" }>,
  secrets: SecretsReader,
): Promise<Record<string, string>> {
  let cred: { type: string; data: Record<string, string> };
  try {
    cred = await secrets.get(auth.credentialId);
  } catch (e) {
    throw new WebhookCredentialError((e as Error).message);
  }
  const types: Record<string, readonly string[]> = accepted[auth.type];
  const fields = Object.hasOwn(types, cred.type) ? types[cred.type] : undefined;
  if (!fields) {
    throw new WebhookCredentialError(
      `credential ${auth.credentialId} is of type ${cred.type}; ${auth.type} auth needs one of type ${Object.keys(types).join(", ")}`,
    );
  }
  const out: Record<string, string> = {};
  for (const f of fields) {
    const value = cred.data[f];
    // An empty expected value would match a request that sends nothing.
    if (typeof value !== "string" || value === "")
      throw new WebhookCredentialError(`credential ${auth.credentialId} has an empty ${f}`);
    out[f] = value;
  }
  return out;
}

/**
 * Checks a webhook trigger's credential at save and before activation, as a flow problem naming the node
 * and field. Undefined when it fits or the trigger needs none.
 */
export async function webhookCredentialProblem(
  nodes: readonly FlowNode[],
  secrets: SecretsReader,
): Promise<Problem | undefined> {
  const node = nodes.find((n) => n.type === webhookTrigger.type && !n.disabled);
  const auth = (node?.config as { auth?: WebhookAuth } | undefined)?.auth;
  if (!node || !auth || auth.type === "none" || typeof auth.credentialId !== "string") return undefined;
  try {
    await webhookSecrets(auth, secrets);
    return undefined;
  } catch (e) {
    if (!(e instanceof WebhookCredentialError)) throw e;
    const field = "auth.credentialId";
    return {
      code: "config_invalid",
      nodeId: node.id,
      field,
      message: `node "${node.id}" field "${field}": ${e.message}`,
    };
  }
}
