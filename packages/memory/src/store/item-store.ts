import { randomUUID } from "node:crypto";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type Database from "better-sqlite3";
import type { Embedder } from "../embed/embedder";
import { itemPatch, type ItemPatch, type MemoryItem, type ParsedItemInput, type ProgressFn } from "../types";
import { contentHash, embeddingText, type ItemRow, toItem } from "./rows";
import { createVectorWriter, type VectorBackend } from "./vectors";

export interface UpsertReport {
  added: number;
  updated: number;
  unchanged: number;
  /** Ids of the added and updated items, in input order. */
  ids: string[];
  /** Items stored without a vector because the embedder failed; `reembed` picks them up. */
  pendingEmbeddings: number;
}

/** The write side of the store. Only the ingest API holds one. */
export function createItemStore(
  db: Database.Database,
  backend: VectorBackend,
  embedder: Embedder,
  log: (line: string) => void,
  /** Called after every committed write (the ANN index catches up with the change log there). */
  afterWrite: () => void = () => {},
) {
  const vectors = createVectorWriter(db, backend);
  const bySource = db.prepare(
    "SELECT seq, id, content_hash, namespace FROM items WHERE namespace = ? AND source = ?",
  );
  const byId = db.prepare("SELECT * FROM items WHERE id = ?");
  const insert = db.prepare(
    `INSERT INTO items (id, namespace, kind, key, content, thread, tags, source, content_hash, embedder_id, created_at, updated_at)
     VALUES (@id, @namespace, @kind, @key, @content, @thread, @tags, @source, @hash, @embedderId, @now, @now)`,
  );
  const update = db.prepare(
    `UPDATE items SET namespace = @namespace, kind = @kind, key = @key, content = @content, thread = @thread, tags = @tags,
     content_hash = @hash, embedder_id = @embedderId, updated_at = @now WHERE seq = @seq`,
  );
  const remove = db.prepare("DELETE FROM items WHERE seq = ?");

  // Embedding failures must not lose the write: the row is stored, searchable lexically, and marked pending.
  const tryEmbed = async (texts: string[]): Promise<Float32Array[] | null> => {
    if (texts.length === 0) return [];
    try {
      return await embedder.embed(texts);
    } catch (err) {
      log(
        `memory: embedding failed (${(err as Error).message}); ${texts.length} item(s) stored without vectors`,
      );
      return null;
    }
  };

  const writeVector = (seq: number, namespace: string, vector: Float32Array | undefined) => {
    if (vector) vectors.put(seq, namespace, vector);
    else vectors.remove(seq);
  };

  async function upsertMany(inputs: ParsedItemInput[]): Promise<UpsertReport> {
    const report: UpsertReport = { added: 0, updated: 0, unchanged: 0, ids: [], pendingEmbeddings: 0 };
    // Same source twice in one batch: the last one wins.
    const bySourceKey = new Map<string, number>();
    inputs.forEach((x, i) => {
      if (x.source) bySourceKey.set(`${x.namespace}\u0000${x.source}`, i);
    });
    const plans: Array<{ input: ParsedItemInput; hash: string; existing?: { seq: number; id: string } }> = [];
    inputs.forEach((input, i) => {
      if (input.source && bySourceKey.get(`${input.namespace}\u0000${input.source}`) !== i) return;
      const hash = contentHash({ ...input, thread: input.thread ?? null });
      const existing = input.source
        ? (bySource.get(input.namespace, input.source) as
            | { seq: number; id: string; content_hash: string }
            | undefined)
        : undefined;
      if (existing && existing.content_hash === hash) report.unchanged++;
      else plans.push({ input, hash, existing });
    });
    const vecs = await tryEmbed(
      plans.map((p) => embeddingText({ ...p.input, thread: p.input.thread ?? null })),
    );
    const now = new Date().toISOString();
    db.transaction(() => {
      plans.forEach((p, i) => {
        const vector = vecs?.[i];
        const params = {
          namespace: p.input.namespace,
          kind: p.input.kind,
          key: p.input.key,
          content: p.input.content,
          thread: p.input.thread ?? null,
          tags: JSON.stringify(p.input.tags),
          hash: p.hash,
          embedderId: vector ? embedder.id : null,
          now,
        };
        let seq: number;
        if (p.existing) {
          seq = p.existing.seq;
          update.run({ ...params, seq });
          report.updated++;
          report.ids.push(p.existing.id);
        } else {
          const id = randomUUID();
          seq = Number(insert.run({ ...params, id, source: p.input.source ?? null }).lastInsertRowid);
          report.added++;
          report.ids.push(id);
        }
        if (!vector) report.pendingEmbeddings++;
        writeVector(seq, p.input.namespace, vector);
      });
    })();
    afterWrite();
    return report;
  }

  async function updateItem(id: string, patchInput: ItemPatch): Promise<MemoryItem | null> {
    const patch = itemPatch.parse(patchInput);
    const row = byId.get(id) as ItemRow | undefined;
    if (!row) return null;
    const next = {
      namespace: patch.namespace ?? row.namespace,
      kind: patch.kind ?? row.kind,
      key: patch.key ?? row.key,
      content: patch.content ?? row.content,
      thread: patch.thread === undefined ? row.thread : patch.thread,
      tags: patch.tags ?? (JSON.parse(row.tags) as string[]),
    };
    const hash = contentHash(next);
    if (hash === row.content_hash && next.namespace === row.namespace) return toItem(row);
    const vector = (await tryEmbed([embeddingText(next)]))?.[0];
    db.transaction(() => {
      update.run({
        ...next,
        tags: JSON.stringify(next.tags),
        hash,
        embedderId: vector ? embedder.id : null,
        now: new Date().toISOString(),
        seq: row.seq,
      });
      writeVector(row.seq, next.namespace, vector);
    })();
    afterWrite();
    return toItem(byId.get(id) as ItemRow);
  }

  /** Deletes items by seq together with their FTS rows (trigger) and vectors. */
  const deleteInTransaction = db.transaction((seqs: number[]) => {
    let n = 0;
    for (const seq of seqs) {
      vectors.remove(seq);
      n += remove.run(seq).changes;
    }
    return n;
  });
  const deleteSeqs = (seqs: number[]) => {
    const n = deleteInTransaction(seqs);
    if (n > 0) afterWrite();
    return n;
  };

  function deleteItem(id: string): boolean {
    const row = byId.get(id) as ItemRow | undefined;
    return row ? deleteSeqs([row.seq]) > 0 : false;
  }

  /** Removes items of `namespace` whose source starts with `prefix` and is not in `keep`. */
  function deleteStaleSources(namespace: string, prefix: string, keep: Set<string>): number {
    const rows = db
      .prepare("SELECT seq, source FROM items WHERE namespace = ? AND source >= ? AND source < ?")
      .all(namespace, prefix, `${prefix}\uffff`) as Array<{ seq: number; source: string }>;
    return deleteSeqs(rows.filter((r) => !keep.has(r.source)).map((r) => r.seq));
  }

  /** Embeds every row that has no vector from the current embedder, in batches, yielding between them. */
  async function embedPending(onProgress?: ProgressFn, batchSize = 256): Promise<number> {
    const total = (
      db.prepare("SELECT count(*) AS n FROM items WHERE embedder_id IS NULL").get() as { n: number }
    ).n;
    const next = db.prepare("SELECT * FROM items WHERE embedder_id IS NULL AND seq > ? ORDER BY seq LIMIT ?");
    // Only mark the row if it was not edited while its vector was being computed.
    const mark = db.prepare(
      "UPDATE items SET embedder_id = ? WHERE seq = ? AND content_hash = ? AND embedder_id IS NULL",
    );
    let done = 0;
    let after = 0;
    onProgress?.(0, total);
    for (;;) {
      const rows = next.all(after, batchSize) as ItemRow[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.seq;
      const vecs = await embedder.embed(
        rows.map((r) => embeddingText({ ...r, tags: JSON.parse(r.tags) as string[] })),
      );
      db.transaction(() => {
        rows.forEach((r, i) => {
          if (mark.run(embedder.id, r.seq, r.content_hash).changes === 1)
            vectors.put(r.seq, r.namespace, vecs[i]!);
        });
      })();
      afterWrite();
      done += rows.length;
      onProgress?.(Math.min(done, total), total);
      await yieldToLoop();
    }
    return done;
  }

  const getItem = (id: string): MemoryItem | null => {
    const row = byId.get(id) as ItemRow | undefined;
    return row ? toItem(row) : null;
  };

  return { upsertMany, updateItem, deleteItem, deleteStaleSources, embedPending, getItem };
}

export type ItemStore = ReturnType<typeof createItemStore>;
