import { createHash } from "node:crypto";
import type { NodeContext, SecretsReader } from "@switchyard/engine";
import type { z } from "zod";
import { formatIssues } from "../define";
import { NodeError, notConfigured } from "../errors";
import { assertCredentialHost } from "../http/allowed-hosts";
import type { GuardedHttpClient } from "../http/client";
import type { ResolvedAddress } from "../http/vet";

/** What a broker client needs to reach a credential's server: its fields and the vetted address. */
export interface BrokerTarget<F> {
  settings: F;
  address: ResolvedAddress;
  /** Identifies the credential *and* its current fields: an edited credential gets a new connection. */
  key: string;
}

/**
 * Reads a broker credential, checks its host against the credential's own allowed hosts, then passes
 * the host through the outbound guard (the SSRF policy every HTTP request passes). The client connects
 * to the returned address and never resolves the name again.
 */
export async function brokerTarget<S extends z.ZodType<{ host: string; port: string }>>(o: {
  credentialId: string;
  schema: S;
  /** URL scheme naming the target in a refusal, e.g. `mqtt`. */
  scheme: string;
  secrets: SecretsReader | undefined;
  guard: Partial<GuardedHttpClient> | undefined;
  nodeId: string;
}): Promise<BrokerTarget<z.output<S>>> {
  if (!o.secrets) throw notConfigured("Credentials", o.nodeId);
  if (!o.guard?.vetHost) throw notConfigured("the outbound address guard", o.nodeId);
  const { data } = await o.secrets.get(o.credentialId);
  const parsed = o.schema.safeParse(data);
  if (!parsed.success)
    throw new NodeError("config_invalid", formatIssues(`credential "${o.credentialId}"`, parsed.error), {
      nodeId: o.nodeId,
      retryable: false,
    });
  const settings = parsed.data;
  assertCredentialHost(o.credentialId, data, settings.host, o.nodeId);
  let address: ResolvedAddress;
  try {
    address = await o.guard.vetHost(settings.host, `${o.scheme}://${settings.host}:${settings.port}`);
  } catch (err) {
    if (err instanceof NodeError) err.nodeId ??= o.nodeId;
    throw err;
  }
  // Hashed: the key may be listed (tests, health) and must not carry the password.
  const digest = createHash("sha256")
    .update(JSON.stringify([data, address.address]))
    .digest("hex");
  const key = `${o.scheme}:${o.credentialId}:${digest.slice(0, 16)}`;
  return { settings, address, key };
}

/** The guard as nodes receive it (`ctx.http` carries `vetHost` in the host). */
export const guardOf = (ctx: NodeContext) => ctx.http as Partial<GuardedHttpClient> | undefined;
