import type { FlowRepo } from "@switchyard/db";
import {
  compileGraph,
  type FlowDefinition,
  type FlowGraph,
  type NodeRegistry,
  parseFlow,
  validateFlow,
} from "@switchyard/engine";

export interface CompiledFlow {
  flow: FlowDefinition;
  graph: FlowGraph;
}

export class FlowVersionError extends Error {
  override name = "FlowVersionError";
}

/**
 * Versions are immutable, so a parsed, validated and compiled version is cached forever (bounded LRU):
 * the hot path never re-parses a flow per run.
 */
export function createFlowCache(flows: FlowRepo, registry: NodeRegistry, max = 500) {
  const cache = new Map<string, CompiledFlow>();
  // The most recently used key: a hit on it needs no reordering. Moving an entry re-inserts it, and a
  // long-lived Map whose entries move on every request churns its hash table (see TransientMap).
  let newest: string | undefined;
  return {
    async get(flowId: string, version: number): Promise<CompiledFlow> {
      const key = `${flowId}@${version}`;
      const hit = cache.get(key);
      if (hit) {
        if (key !== newest) {
          cache.delete(key);
          cache.set(key, hit);
          newest = key;
        }
        return hit;
      }
      const row = await flows.getVersion(flowId, version);
      if (!row) throw new FlowVersionError(`flow ${flowId} version ${version} not found`);
      const parsed = parseFlow(row.definition);
      if (!parsed.ok)
        throw new FlowVersionError(
          `flow ${flowId} version ${version} is not a valid flow: ${parsed.issues.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join("; ")}`,
        );
      const problems = validateFlow(parsed.flow, registry);
      if (problems.length)
        throw new FlowVersionError(
          `flow ${flowId} version ${version} has problems: ${problems.map((p) => p.message).join("; ")}`,
        );
      const compiled = { flow: parsed.flow, graph: compileGraph(parsed.flow, registry) };
      cache.set(key, compiled);
      newest = key;
      if (cache.size > max) cache.delete(cache.keys().next().value!);
      return compiled;
    },
    /** Seeds the cache with a version just saved (saves validate already). */
    put(flowId: string, version: number, compiled: CompiledFlow) {
      const key = `${flowId}@${version}`;
      // A key already present keeps its place in a Map: move it, as a hit would.
      cache.delete(key);
      cache.set(key, compiled);
      newest = key;
    },
  };
}

export type FlowCache = ReturnType<typeof createFlowCache>;
