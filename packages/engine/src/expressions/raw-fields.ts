/** Splits off a node's raw (never-evaluated) config fields; results are cached per immutable config object. */
const cache = new WeakMap<object, { dynamic: Record<string, unknown>; raw: Record<string, unknown> }>();

export function splitRawFields(config: unknown, rawFields: readonly string[] | undefined) {
  if (!rawFields?.length || config === null || typeof config !== "object" || Array.isArray(config)) {
    return { dynamic: config, raw: undefined };
  }
  let hit = cache.get(config);
  if (!hit) {
    const dynamic: Record<string, unknown> = {};
    const raw: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(config)) (rawFields.includes(k) ? raw : dynamic)[k] = v;
    hit = { dynamic, raw };
    cache.set(config, hit);
  }
  return hit;
}
