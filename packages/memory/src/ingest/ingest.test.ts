import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { describe, expect, it } from "vitest";
import { tempDir, tempMemory } from "../__tests__/temp-memory";
import { createDefaultEmbedder } from "../embed/default";

function indexCounts(file: string) {
  const db = new Database(file, { readonly: true });
  sqliteVec.load(db);
  const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const counts = {
    items: n("SELECT count(*) AS n FROM items"),
    fts: n("SELECT count(*) AS n FROM items_fts"),
    ftsMatches: n(`SELECT count(*) AS n FROM items_fts WHERE items_fts MATCH '"zanzibar"'`),
    // Vectors live in a plain table next to the ANN index (the default) or in sqlite-vec's.
    vectors: n(
      `SELECT count(*) AS n FROM ${n("SELECT count(*) AS n FROM sqlite_master WHERE name = 'items_vec_blob'") ? "items_vec_blob" : "items_vec"}`,
    ),
  };
  db.close();
  return counts;
}

describe("add, edit and delete", () => {
  it("adds an item with defaults and finds it", async () => {
    const m = tempMemory();
    const item = await m.ingest.add({ key: "Zanzibar trip", content: "Team offsite in Zanzibar." });
    expect(item).toMatchObject({
      namespace: "global",
      kind: "memory",
      tags: [],
      thread: null,
      embedderId: createDefaultEmbedder().id,
    });
    expect(m.reader.get(item.id)).toEqual(item);
    expect((await m.reader.search("zanzibar", { namespace: "global", mode: "lexical" }))[0]?.item.id).toBe(
      item.id,
    );
  });

  it("edits in place and re-indexes the changed text only", async () => {
    const m = tempMemory();
    const item = await m.ingest.add({ key: "Trip", content: "Offsite in Lisbon." });
    const edited = await m.ingest.edit(item.id, { content: "Offsite in Zanzibar.", tags: ["travel"] });
    expect(edited).toMatchObject({ id: item.id, content: "Offsite in Zanzibar.", tags: ["travel"] });
    expect(await m.reader.search("lisbon", { namespace: "global", mode: "lexical" })).toEqual([]);
    expect((await m.reader.search("zanzibar", { namespace: "global", mode: "semantic" }))[0]?.item.id).toBe(
      item.id,
    );
    expect(await m.ingest.edit("missing", { content: "x" })).toBeNull();
  });

  it("deletes the row, its full-text entry and its vector", async () => {
    const m = tempMemory();
    const a = await m.ingest.add({ key: "Zanzibar", content: "Zanzibar offsite." });
    await m.ingest.add({ key: "Other", content: "Something else." });
    expect(indexCounts(m.file)).toEqual({ items: 2, fts: 2, ftsMatches: 1, vectors: 2 });
    expect(m.ingest.delete(a.id)).toBe(true);
    expect(indexCounts(m.file)).toEqual({ items: 1, fts: 1, ftsMatches: 0, vectors: 1 });
    expect(m.ingest.delete(a.id)).toBe(false);
    expect(await m.reader.recall("zanzibar offsite")).toEqual([]);
  });

  it("rejects bad input with a named field and writes nothing", async () => {
    const m = tempMemory();
    await expect(m.ingest.add({ key: " ", content: "x" })).rejects.toThrow("key cannot be empty");
    await expect(m.ingest.add({ key: "k", content: "x", kind: "secret" as "memory" })).rejects.toThrow();
    expect(m.reader.status().items).toBe(0);
  });

  it("refuses an unknown facet name", () => {
    const m = tempMemory();
    expect(() => m.ingest.setFlavour("tone", "x")).toThrow(/^Unknown flavour 'tone'\. Valid flavours: /);
    m.ingest.setFlavour("rules", "Never send on Sundays.");
    expect(m.reader.flavour("directives")).toBe("Never send on Sundays.");
    expect(m.ingest.deleteFlavour("directives")).toBe(true);
    expect(m.reader.flavour("directives")).toBeNull();
  });
});

describe("importPath", () => {
  it("imports markdown notes with title from front-matter, heading or file name, and tags", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    mkdirSync(join(dir, ".obsidian"));
    writeFileSync(join(dir, "a.md"), "---\ntitle: Front title\ntags: [billing, stripe]\n---\nBody A");
    writeFileSync(join(dir, "sub", "b.md"), "# Heading B\n\nBody B");
    writeFileSync(join(dir, "c.markdown"), "---\ntags:\n  - ops\n  - '#backup'\n---\nBody C");
    writeFileSync(join(dir, ".obsidian", "x.md"), "# hidden");
    const m = tempMemory();
    const report = await m.ingest.importPath(dir, { namespace: "notes" });
    expect(report).toMatchObject({ files: 3, added: 3, updated: 0, unchanged: 0, skipped: [] });
    const items = m.reader.list({ namespace: "notes" }).items.sort((x, y) => x.key.localeCompare(y.key));
    expect(items.map((i) => [i.key, i.content, i.tags])).toEqual([
      ["c", "Body C", ["ops", "backup"]],
      ["Front title", "Body A", ["billing", "stripe"]],
      ["Heading B", "Body B", []],
    ]);
  });

  it("re-import of unchanged files adds nothing; a changed file is updated in place", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.md"), "# A\nfirst");
    writeFileSync(join(dir, "b.md"), "# B\nsecond");
    const m = tempMemory();
    await m.ingest.importPath(dir);
    const idA = m.reader.list().items.find((i) => i.key === "A")!.id;
    expect(await m.ingest.importPath(dir)).toMatchObject({ added: 0, updated: 0, unchanged: 2 });
    writeFileSync(join(dir, "a.md"), "# A\nfirst, edited");
    expect(await m.ingest.importPath(dir)).toMatchObject({ added: 0, updated: 1, unchanged: 1 });
    expect(m.reader.status().items).toBe(2);
    expect(m.reader.get(idA)?.content).toBe("first, edited");
  });

  it("records a given source for an uploaded file, so the same upload from another temp folder updates in place", async () => {
    const m = tempMemory();
    const first = join(tempDir(), "notes.md");
    writeFileSync(first, "# Notes\nv1");
    await m.ingest.importPath(first, { source: "upload:notes.md" });
    const second = join(tempDir(), "notes.md");
    writeFileSync(second, "# Notes\nv2");
    expect(await m.ingest.importPath(second, { source: "upload:notes.md" })).toMatchObject({
      added: 0,
      updated: 1,
    });
    expect(m.reader.list().items.map((i) => [i.source, i.content])).toEqual([["upload:notes.md", "v2"]]);
    await expect(m.ingest.importPath(tempDir(), { source: "upload:x" })).rejects.toThrow(
      "a source name applies to a single file, not a folder",
    );
  });

  it("imports a JSON transcript as one item per utterance in a thread named after the file", async () => {
    const dir = tempDir();
    const file = join(dir, "call-hollis.json");
    writeFileSync(
      file,
      JSON.stringify([
        { speaker: "Maya", text: "What do you need?" },
        { speaker: "Rosa", text: "400 menus.", at: "10:02" },
      ]),
    );
    const m = tempMemory();
    expect(await m.ingest.importPath(file)).toMatchObject({ added: 2 });
    expect(m.reader.threads("global")).toEqual([
      expect.objectContaining({ thread: "call-hollis", items: 2 }),
    ]);
    const keys = m.reader
      .list({ thread: "call-hollis" })
      .items.map((i) => `${i.kind}|${i.key}|${i.content}`)
      .sort();
    expect(keys).toEqual(["transcript|Maya|What do you need?", "transcript|Rosa @ 10:02|400 menus."]);
  });

  it("imports a text transcript with speaker lines, a given thread, and drops lines removed on re-import", async () => {
    const dir = tempDir();
    const file = join(dir, "standup.txt");
    writeFileSync(
      file,
      "Maya: Morning all.\nJordan: Nozzle check failed\nand I cleaned the head.\n[09:05] Sam: Reminders sent.\n",
    );
    const m = tempMemory();
    await m.ingest.importPath(file, { thread: "standup-03-03" });
    const contents = () =>
      m.reader
        .list({ thread: "standup-03-03" })
        .items.map((i) => i.content)
        .sort();
    expect(contents()).toEqual([
      "Morning all.",
      "Nozzle check failed\nand I cleaned the head.",
      "Reminders sent.",
    ]);
    writeFileSync(file, "Maya: Morning all.\n");
    expect(await m.ingest.importPath(file, { thread: "standup-03-03" })).toMatchObject({
      unchanged: 1,
      removed: 2,
    });
    expect(contents()).toEqual(["Morning all."]);
  });

  it("imports contacts from CSV and vCard as people", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "contacts.csv"),
      'First Name,Last Name,Email,Company,Notes\nKen,Alvarez,ken@northline.example,Northline Paper,"Delivers Thursdays, ""standing"" order"\n,,,,\n',
    );
    writeFileSync(
      join(dir, "cards.vcf"),
      "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Priya Raman\r\nORG:Raman & Co\r\nTEL;TYPE=work:tel:+1-503-555-0100\r\nEMAIL:priya@ramanco.example\r\nNOTE:Year-end documents due\r\n  by Feb 15\\, please.\r\nCATEGORIES:accountant,tax\r\nEND:VCARD\r\n",
    );
    const m = tempMemory();
    expect(await m.ingest.importPath(dir)).toMatchObject({ files: 2, added: 2 });
    const people = Object.fromEntries(m.reader.list({ kind: "person" }).items.map((i) => [i.key, i]));
    expect(people["Ken Alvarez"]?.content).toBe(
      'Email: ken@northline.example\nCompany: Northline Paper\nNotes: Delivers Thursdays, "standing" order',
    );
    expect(people["Priya Raman"]?.content).toBe(
      "Company: Raman & Co\nPhone: +1-503-555-0100\nEmail: priya@ramanco.example\nNotes: Year-end documents due by Feb 15, please.",
    );
    expect(people["Priya Raman"]?.tags).toEqual(["accountant", "tax"]);
    expect(await m.ingest.importPath(dir)).toMatchObject({ added: 0, unchanged: 2 });
  });

  it("fails clearly on an unsupported or malformed single file, and skips it inside a folder", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), '{"not":"an array"}');
    writeFileSync(join(dir, "x.pdf"), "%PDF");
    writeFileSync(join(dir, "ok.md"), "# ok");
    const m = tempMemory();
    await expect(m.ingest.importPath(join(dir, "x.pdf"))).rejects.toThrow("unsupported file type '.pdf'");
    await expect(m.ingest.importPath(join(dir, "bad.json"))).rejects.toThrow(
      "transcript JSON must be an array of {speaker, text, at?}",
    );
    expect(m.reader.status().items).toBe(0);
    const report = await m.ingest.importPath(dir);
    expect(report).toMatchObject({ files: 1, added: 1 });
    expect(report.skipped).toEqual([
      { path: join(dir, "bad.json"), reason: expect.stringContaining("transcript JSON") },
    ]);
  });

  it("lets other work run between batches of a long import, so progress can be read while it runs", async () => {
    const m = tempMemory();
    const progress: Array<[number, number]> = [];
    let seenMidway: [number, number] | undefined;
    // Queued before the import starts: it runs at the import's first yield, not after the import.
    setImmediate(() => {
      seenMidway = progress.at(-1);
    });
    await m.ingest.addMany(
      Array.from({ length: 2500 }, (_, i) => ({ key: `K${i}`, content: `line ${i}` })),
      { onProgress: (d, t) => progress.push([d, t]) },
    );
    expect(seenMidway).toEqual([1000, 2500]);
    expect(progress).toEqual([
      [0, 2500],
      [1000, 2500],
      [2000, 2500],
      [2500, 2500],
    ]);
  });

  // How fast it goes is a benchmark (bench/memory-speed.ts, bench/memory-ingest-cpu.ts), not a test: on a shared
  // 2-core machine the same import takes from a few seconds to over a minute, so only a limit for a hung import
  // is set (the 180 s at the end).
  it("imports 10 000 generated notes in batches, reporting progress to the end", async () => {
    const dir = tempDir();
    for (let i = 0; i < 10_000; i++) {
      writeFileSync(
        join(dir, `note-${i}.md`),
        `# Note ${i}\n\nCustomer ${i % 97} ordered ${i} flyers on stock ${i % 13}.`,
      );
    }
    const m = tempMemory();
    const progress: Array<[number, number]> = [];
    const report = await m.ingest.importPath(dir, { onProgress: (d, t) => progress.push([d, t]) });
    expect(report).toMatchObject({ files: 10_000, added: 10_000 });
    expect(progress[0]).toEqual([0, 10_000]);
    expect(progress.at(-1)).toEqual([10_000, 10_000]);
    expect(progress.length).toBeGreaterThan(5);
    expect(m.reader.status()).toMatchObject({ items: 10_000, pendingEmbeddings: 0 });
    expect(
      (await m.reader.search("Note 4242", { namespace: "global", mode: "lexical", limit: 1 }))[0]?.item.key,
    ).toBe("Note 4242");
  }, 180_000);
});
