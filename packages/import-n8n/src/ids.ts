/** Node ids from n8n node names: lowercase words joined by `_`, unique, usable as `nodes.<id>` in JSONata. */
export function nodeIds(names: string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const name of names) {
    let base = name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 60);
    if (!base || !/^[a-z]/.test(base)) base = `node_${base}`.replace(/_+$/, "");
    let id = base;
    for (let n = 2; used.has(id) || used.has(`${id}_body`); n++) id = `${base}_${n}`;
    used.add(id);
    ids.set(name, id);
  }
  return ids;
}
