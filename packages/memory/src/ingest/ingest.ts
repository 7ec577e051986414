import { statSync } from "node:fs";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { extname, resolve } from "node:path";
import type Database from "better-sqlite3";
import { resolveFlavour, unknownFlavourMessage } from "../flavours";
import { deleteDocument, facetDoc, MEMORY_DOC, PROFILE_DOC, writeDocument } from "../store/documents";
import type { ItemStore, UpsertReport } from "../store/item-store";
import {
  DEFAULT_NAMESPACE,
  type ItemInput,
  type ItemPatch,
  itemInput,
  type MemoryItem,
  type ProgressFn,
} from "../types";
import {
  detectFileType,
  listImportableFiles,
  type ParsedFile,
  parseFile,
  SUPPORTED_EXTENSIONS,
} from "./files";

export interface ImportOptions {
  namespace?: string;
  /** Thread name for a transcript file (default: the file name without extension). */
  thread?: string;
  /**
   * For a single file only: the source recorded on its items instead of `file:<absolute path>`, e.g.
   * `upload:notes.md` for a browser upload, so uploading the same file again updates in place.
   */
  source?: string;
  onProgress?: ProgressFn;
}

export interface ImportReport {
  files: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Items deleted because their file no longer contains them (transcript lines, contacts). */
  removed: number;
  pendingEmbeddings: number;
  skipped: Array<{ path: string; reason: string }>;
}

// Items per transaction: big enough to amortise the commit, small enough for steady progress.
const BATCH = 1000;

/** Write API for people (UI, CLI, tRPC). Never handed to an agent. */
export function createMemoryIngest(db: Database.Database, store: ItemStore) {
  async function upsertAll(items: ItemInput[], onProgress?: ProgressFn): Promise<UpsertReport> {
    const parsed = items.map((x) => itemInput.parse(x));
    const total: UpsertReport = { added: 0, updated: 0, unchanged: 0, ids: [], pendingEmbeddings: 0 };
    onProgress?.(0, parsed.length);
    for (let i = 0; i < parsed.length; i += BATCH) {
      const r = await store.upsertMany(parsed.slice(i, i + BATCH));
      total.added += r.added;
      total.updated += r.updated;
      total.unchanged += r.unchanged;
      total.pendingEmbeddings += r.pendingEmbeddings;
      total.ids.push(...r.ids);
      onProgress?.(Math.min(i + BATCH, parsed.length), parsed.length);
      // Let the server answer other requests (e.g. progress polls) between batches of a long import.
      if (i + BATCH < parsed.length) await yieldToLoop();
    }
    return total;
  }

  async function importPath(path: string, opts: ImportOptions = {}): Promise<ImportReport> {
    const abs = resolve(path);
    const namespace = opts.namespace ?? DEFAULT_NAMESPACE;
    const stat = statSync(abs);
    const files = stat.isDirectory() ? listImportableFiles(abs) : [abs];
    if (stat.isDirectory() && opts.source !== undefined)
      throw new Error("a source name applies to a single file, not a folder");
    if (!stat.isDirectory() && detectFileType(abs) === null) {
      throw new Error(
        `unsupported file type '${extname(abs)}' (expected ${SUPPORTED_EXTENSIONS.join(", ")})`,
      );
    }
    const report: ImportReport = {
      files: 0,
      added: 0,
      updated: 0,
      unchanged: 0,
      removed: 0,
      pendingEmbeddings: 0,
      skipped: [],
    };
    const parsed: ParsedFile[] = [];
    for (const file of files) {
      try {
        parsed.push(
          parseFile(file, detectFileType(file)!, { namespace, thread: opts.thread, source: opts.source }),
        );
        report.files++;
      } catch (err) {
        // A single file is the user's explicit choice: fail loudly. In a folder, skip and report.
        if (!stat.isDirectory()) throw err;
        report.skipped.push({ path: file, reason: (err as Error).message });
      }
    }
    const r = await upsertAll(
      parsed.flatMap((p) => p.items),
      opts.onProgress,
    );
    report.added = r.added;
    report.updated = r.updated;
    report.unchanged = r.unchanged;
    report.pendingEmbeddings = r.pendingEmbeddings;
    for (const p of parsed) {
      if (p.stalePrefix) {
        report.removed += store.deleteStaleSources(
          namespace,
          p.stalePrefix,
          new Set(p.items.map((x) => x.source!)),
        );
      }
    }
    return report;
  }

  const flavourName = (name: string) => {
    const f = resolveFlavour(name);
    if (f === null) throw new Error(unknownFlavourMessage(name));
    return f;
  };

  return Object.freeze({
    /** Adds one item (or updates the item with the same namespace + source). */
    async add(input: ItemInput): Promise<MemoryItem> {
      const parsed = itemInput.parse(input);
      const r = await store.upsertMany([parsed]);
      // An unchanged re-add of a sourced item reports no id: return the stored one.
      const id =
        r.ids[0] ??
        (
          db
            .prepare("SELECT id FROM items WHERE namespace = ? AND source = ?")
            .get(parsed.namespace, parsed.source) as {
            id: string;
          }
        ).id;
      return store.getItem(id)!;
    },
    addMany: (inputs: ItemInput[], opts: { onProgress?: ProgressFn } = {}) =>
      upsertAll(inputs, opts.onProgress),
    edit: (id: string, patch: ItemPatch) => store.updateItem(id, patch),
    /** Deletes the item, its full-text row and its vector. */
    delete: (id: string) => store.deleteItem(id),
    importPath,
    setProfile: (markdown: string) => writeDocument(db, PROFILE_DOC, markdown),
    setMemoryFile: (markdown: string) => writeDocument(db, MEMORY_DOC, markdown),
    setFlavour: (name: string, markdown: string) => writeDocument(db, facetDoc(flavourName(name)), markdown),
    deleteFlavour: (name: string) => deleteDocument(db, facetDoc(flavourName(name))),
    /** Embeds every item that has no vector from the current embedder (after a change of embedder). */
    reembed: (onProgress?: ProgressFn, batchSize?: number) => store.embedPending(onProgress, batchSize),
  });
}

export type MemoryIngest = ReturnType<typeof createMemoryIngest>;
