import type { Item, NodeContext } from "@switchyard/engine";
import { createConnectionPools } from "../connections/pools";
import { createHttpClient } from "../http/client";
import { fakeCtx } from "./fake-ctx";

/**
 * A NodeContext for the database and broker nodes' tests against the machine's real services: a vault
 * of the given credentials, the real outbound guard (loopback let through, as the host's
 * `http.allowHosts` setting does) and real shared pools. `close()` ends every pool.
 */
export function serviceCtx(credentials: Record<string, { type: string; data: Record<string, string> }>) {
  const pools = createConnectionPools({ idleMs: 60_000 });
  const ctx: NodeContext = fakeCtx({
    secrets: {
      async get(id) {
        const c = credentials[id];
        if (!c) throw new Error(`no credential "${id}"`);
        return c;
      },
    },
    http: createHttpClient({ allowHosts: ["127.0.0.1", "localhost"] }),
    pools,
  });
  return { ctx, pools, close: () => pools.closeAll() };
}

/** Resolves `{{ item.x }}`-style params the way the engine's runner would, for direct `execute` calls. */
export const byItem = async (value: unknown, item: Item | undefined): Promise<unknown> => {
  const { resolveConfig } = await import("@switchyard/engine");
  return resolveConfig(value, { item: item?.json, items: [], trigger: undefined, nodes: {}, run: {} });
};

export const unique = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
