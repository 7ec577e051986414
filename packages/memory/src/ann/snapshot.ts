import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { NeighbourIndex } from "./neighbour-index";

const MANIFEST = "manifest.json";

/** What a snapshot directory holds: which index file serves which namespace, up to which logged change. */
const manifestSchema = z.object({
  format: z.literal(1),
  /** ANN settings (projection, quantisation, graph degree): a snapshot made with others is not loaded. */
  signature: z.string(),
  /** meta.vector_epoch of the database it was made from; a reset vector table starts a new epoch. */
  epoch: z.string(),
  /** Last vector_changes id applied to it. */
  watermark: z.number().int().nonnegative(),
  files: z.record(z.string(), z.string()),
});
export type Manifest = z.infer<typeof manifestSchema>;

const fileName = (namespace: string, watermark: number) =>
  `${createHash("sha256").update(namespace).digest("hex").slice(0, 16)}-${watermark}.index`;

/**
 * Writes every index, then the manifest naming them (each through a temp file and a rename), then
 * removes files no manifest names any more. A crash at any point leaves the previous manifest valid.
 */
export function saveSnapshot(
  dir: string,
  header: Omit<Manifest, "files" | "format">,
  indexes: Map<string, NeighbourIndex>,
): void {
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const [namespace, index] of indexes) {
    if (index.size() === 0) continue;
    const name = fileName(namespace, header.watermark);
    index.save(join(dir, `${name}.tmp`));
    renameSync(join(dir, `${name}.tmp`), join(dir, name));
    files[namespace] = name;
  }
  const manifest: Manifest = { format: 1, ...header, files };
  writeFileSync(join(dir, `${MANIFEST}.tmp`), JSON.stringify(manifest));
  renameSync(join(dir, `${MANIFEST}.tmp`), join(dir, MANIFEST));
  const keep = new Set([MANIFEST, ...Object.values(files)]);
  for (const f of readdirSync(dir)) if (!keep.has(f)) rmSync(join(dir, f), { force: true });
}

/** The snapshot's indexes, or the reason it cannot be used (then the caller rebuilds from SQLite). */
export function loadSnapshot(
  dir: string,
  newIndex: () => NeighbourIndex,
  expect: { signature: string; dimensions: number },
): { manifest: Manifest; indexes: Map<string, NeighbourIndex> } | { error: string } {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return { error: "no snapshot" };
  try {
    const manifest = manifestSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    if (manifest.signature !== expect.signature) return { error: "made with other settings" };
    const indexes = new Map<string, NeighbourIndex>();
    for (const [namespace, name] of Object.entries(manifest.files)) {
      const index = newIndex();
      index.load(join(dir, name));
      if (index.dimensions() !== expect.dimensions) return { error: `${name} has other dimensions` };
      indexes.set(namespace, index);
    }
    return { manifest, indexes };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
