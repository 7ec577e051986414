/**
 * What every database and broker node does before it connects: read its credential, check the type and
 * fields, check the host against the credential's allowed hosts, vet the address with the SSRF guard
 * (the node connects to the vetted address, never resolving the name again), and name the shared pool.
 */
import { createHash } from "node:crypto";
import type { NodeContext } from "@switchyard/engine";
import { z } from "zod";
import { formatIssues } from "../define";
import { NodeError, notConfigured } from "../errors";
import { assertCredentialHost } from "../http/allowed-hosts";
import type { GuardedHttpClient } from "../http/client";
import type { ResolvedAddress } from "../http/vet";

export interface ServerTarget<T> {
  /** The credential's fields, parsed. */
  fields: T;
  /** The address the guard checked: connect here. */
  address: ResolvedAddress;
  /** The shared-pool key: node kind, credential, a digest of its fields and the address. */
  poolKey: string;
}

/** What the check needs: a node's ctx, or a trigger listener's vault reader and guard. */
export type ServerTargetContext = Pick<NodeContext, "nodeId" | "secrets" | "http">;

export async function serverTarget<S extends z.ZodType<{ host: string; port: string }>>(
  ctx: ServerTargetContext,
  o: { credentialId: string; type: string; fields: S; scheme: string },
): Promise<ServerTarget<z.infer<S>>> {
  if (!ctx.secrets) throw notConfigured("Credentials", ctx.nodeId);
  const { type, data } = await ctx.secrets.get(o.credentialId);
  if (type !== o.type) {
    throw new NodeError(
      "config_invalid",
      `credential "${o.credentialId}" is a ${type} credential; this node needs a ${o.type} credential`,
      { nodeId: ctx.nodeId, retryable: false, field: "credentialId" },
    );
  }
  const parsed = o.fields.safeParse(data);
  if (!parsed.success) {
    throw new NodeError("config_invalid", formatIssues(`credential "${o.credentialId}"`, parsed.error), {
      nodeId: ctx.nodeId,
      retryable: false,
    });
  }
  const fields = parsed.data as z.infer<S>;
  assertCredentialHost(o.credentialId, data, fields.host, ctx.nodeId);
  const guard = ctx.http as Partial<GuardedHttpClient> | undefined;
  if (!guard?.vetHost) throw notConfigured("the outbound address guard", ctx.nodeId);
  let address: ResolvedAddress;
  try {
    address = await guard.vetHost(fields.host, `${o.scheme}://${fields.host}:${fields.port}`);
  } catch (err) {
    if (err instanceof NodeError) err.nodeId ??= ctx.nodeId;
    throw err;
  }
  const digest = createHash("sha256").update(JSON.stringify(data)).digest("hex").slice(0, 16);
  return { fields, address, poolKey: `${o.type}:${o.credentialId}:${digest}:${address.address}` };
}

/**
 * Runs `fn` with the host's shared connection (a driver's pool or client) for `key`, opened on first use and
 * kept between runs (ctx.connections). The drivers' pools reconnect by themselves, so a failed query gives
 * the connection back rather than discarding it.
 */
export async function useShared<T, R>(
  ctx: NodeContext,
  key: string,
  resource: { open(): Promise<T>; close(connection: T): Promise<void> },
  fn: (connection: T) => Promise<R>,
): Promise<R> {
  if (!ctx.connections) throw notConfigured("Shared connections", ctx.nodeId);
  const lease = await ctx.connections.acquire<T>(key, {
    open: () => resource.open(),
    close: (c) => resource.close(c),
  });
  try {
    return await fn(lease.connection);
  } finally {
    lease.release();
  }
}

/** The timeout field of the broker and key-value nodes: 100 ms to 2 min, 10 s by default. */
export const serverTimeoutMs = (what: string) =>
  z.number().int().min(100).max(120_000).default(10_000).describe(`${what} timeout, in ms`);
