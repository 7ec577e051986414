/** Path of a child in the JSON viewer (`$.a[0].b`); also the key its open/hit state is kept under. */
export function childPath(parent: string, key: string | number): string {
  return typeof key === "number" ? `${parent}[${key}]` : `${parent}.${key}`;
}

export interface SearchResult {
  /** Paths whose key or scalar value contains the query. */
  hits: Set<string>;
  /** Ancestors of hits: opened so the hits are visible. */
  open: Set<string>;
  /** True when the walk stopped early (too many hits or nodes): the count is a lower bound. */
  capped: boolean;
}

const MAX_HITS = 300;
const MAX_VISITS = 500_000;

/** Case-insensitive search over keys and scalar values, bounded so a 4 MiB payload cannot hang the page. */
export function searchJson(value: unknown, query: string): SearchResult {
  const hits = new Set<string>();
  const open = new Set<string>();
  const q = query.trim().toLowerCase();
  if (!q) return { hits, open, capped: false };
  let visits = 0;
  let capped = false;
  const walk = (v: unknown, path: string, ancestors: string[]): void => {
    if (capped) return;
    if (++visits > MAX_VISITS || hits.size >= MAX_HITS) {
      capped = true;
      return;
    }
    const hit = () => {
      hits.add(path);
      for (const a of ancestors) open.add(a);
    };
    if (typeof v === "object" && v !== null) {
      const next = [...ancestors, path];
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) walk(v[i], childPath(path, i), next);
      else
        for (const [k, c] of Object.entries(v)) {
          const p = childPath(path, k);
          if (k.toLowerCase().includes(q)) {
            hits.add(p);
            for (const a of next) open.add(a);
          }
          walk(c, p, next);
        }
      return;
    }
    if (String(v).toLowerCase().includes(q)) hit();
  };
  walk(value, "$", []);
  return { hits, open, capped };
}
