// Query plans, not timings: each filter the runs page and the REST API offer must be an index range scan
// that stops after a page. bench/runs-list.ts measures the same queries over 1 000 000 runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDatabase } from "../__tests__/temp-db";
import { buildCountQueries } from "./run-count-query";
import { buildListQuery, type CursorKey, type RunFilterSql, type RunSort } from "./run-query";
import { toFtsQuery } from "./run-search";

let db: ReturnType<typeof tempDatabase>;
beforeAll(() => {
  db = tempDatabase();
});
afterAll(async () => {
  await db.cleanup();
});

interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}
function plan(q: { sql: string; args: (string | number)[] }): PlanRow[] {
  return db.sql.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.args) as PlanRow[];
}
const accessesOfRun = (rows: PlanRow[]) => rows.filter((r) => /^(SCAN|SEARCH) (Run|r)\b/.test(r.detail));
/**
 * Reads of the runs' list documents that pick the page (the outer join back to Run by id, alias r, reads
 * only the page; a search reads documents by rowid, alias d).
 */
const branchScans = (rows: PlanRow[]) => rows.filter((r) => /^(SCAN|SEARCH) RunSearchDoc\b/.test(r.detail));

/** A full sort beside a scan of the documents sorts every matching run; only sorts of a page-sized result are fine. */
function sortsEveryMatch(rows: PlanRow[]): boolean {
  const scanParents = new Set(branchScans(rows).map((r) => r.parent));
  return rows.some((r) => r.detail === "USE TEMP B-TREE FOR ORDER BY" && scanParents.has(r.parent));
}

const flowChoices = [undefined, "flow-1"];
const statusChoices = [[], ["failed"], ["running", "queued"]];
const channelChoices = [[], ["email"], ["webhook", "cron"]];
const rangeChoices = [
  {},
  { fromMs: Date.parse("2026-05-01T10:20:00Z"), toMs: Date.parse("2026-05-03T08:00:00Z") },
];
const sorts: RunSort[] = ["newest", "oldest"];
const cursors: (CursorKey | null)[] = [null, { id: "0190-x", key: Date.parse("2026-05-02T00:00:00Z") }];

function expectedIndex(f: RunFilterSql): string {
  const cols = [f.flowId && "flowId", f.statuses?.length && "status", f.channels?.length && "channel"];
  return `RunSearchDoc_${[...cols.filter(Boolean), "createdAt"].join("_")}_idx`;
}

describe("run list query plans", () => {
  const cases: [string, RunFilterSql, RunSort, CursorKey | null][] = [];
  for (const flowId of flowChoices)
    for (const statuses of statusChoices)
      for (const channels of channelChoices)
        for (const range of rangeChoices)
          for (const sort of sorts)
            for (const cursor of cursors) {
              const f = { flowId, statuses, channels, ...range };
              cases.push([`${JSON.stringify(f)} ${sort}${cursor ? " after a cursor" : ""}`, f, sort, cursor]);
            }

  it.each(cases)("reads %s from the index for exactly those filters, in order", (_name, f, sort, cursor) => {
    const rows = plan(buildListQuery(f, sort, cursor, 51));
    const branches = branchScans(rows);
    expect(branches.length).toBe(Math.max(1, f.statuses!.length) * Math.max(1, f.channels!.length));
    for (const b of branches) expect(b.detail).toContain(`INDEX ${expectedIndex(f)}`);
    expect(sortsEveryMatch(rows)).toBe(false);
  });

  it("walks a duration index for the longest-first sort with one filter or none", () => {
    const cases: [RunFilterSql, string][] = [
      [{}, "RunSearchDoc_durationMs_idx"],
      [{ flowId: "flow-1" }, "RunSearchDoc_flowId_durationMs_idx"],
      [{ statuses: ["failed"] }, "RunSearchDoc_status_durationMs_idx"],
      [{ channels: ["email"] }, "RunSearchDoc_channel_durationMs_idx"],
    ];
    for (const [f, index] of cases) {
      const rows = plan(buildListQuery(f, "duration", { id: "x", key: 1200 }, 51));
      expect(branchScans(rows)[0]!.detail).toContain(`INDEX ${index}`);
      expect(sortsEveryMatch(rows)).toBe(false);
    }
  });

  it("sorts by duration only the intersection that an index of several filters finds", () => {
    const f = { flowId: "f", statuses: ["failed"], channels: ["email"] };
    const rows = plan(buildListQuery(f, "duration", null, 51));
    expect(branchScans(rows)[0]!.detail).toBe(
      "SEARCH RunSearchDoc USING INDEX RunSearchDoc_flowId_status_channel_createdAt_idx (flowId=? AND status=? AND channel=?)",
    );
  });

  it("walks search matches in the full-text index's rowid order and sorts nothing", () => {
    const filters: RunFilterSql[] = [
      {},
      { flowId: "flow-1", statuses: ["failed"] },
      { channels: ["email", "cron"], fromMs: 5 },
    ];
    for (const f of filters)
      for (const sort of ["newest", "oldest"] as const)
        for (const cursor of [null, { id: "x", key: 5 }]) {
          const rows = plan(buildListQuery({ ...f, match: toFtsQuery("timeout") }, sort, cursor, 51));
          const details = rows.map((r) => r.detail);
          // FTS5 takes over ORDER BY rowid itself: its plan number carries 0x40 (by rowid), 0x80 (descending).
          const fts = details.map((d) => /^SCAN RunSearch VIRTUAL TABLE INDEX (\d+):M/.exec(d)).find(Boolean);
          const idxNum = Number(fts?.[1]);
          expect(idxNum & 0x40).toBe(0x40);
          expect(idxNum & 0x80).toBe(sort === "newest" ? 0x80 : 0);
          expect(details).toContainEqual("SEARCH d USING INTEGER PRIMARY KEY (rowid=?)");
          expect(rows.filter((r) => r.detail.includes("TEMP B-TREE") && r.parent !== 0)).toEqual([]);
          for (const d of details.filter((x) => /^SCAN /.test(x)))
            expect(d).toMatch(/^SCAN (RunSearch VIRTUAL TABLE|k\b|\(subquery-\d+\))/);
          // Run is read for the page only (alias r), never per match, not even for the status filter.
          expect(branchScans(rows)).toEqual([]);
          expect(details.filter((d) => /^(SCAN|SEARCH) Run\b/.test(d))).toEqual([]);
          expect(details.filter((d) => /^SEARCH s\b/.test(d))).toEqual([]);
        }
  });

  it("sorts a search's matches by duration on their small index rows, not on Run", () => {
    const rows = plan(
      buildListQuery(
        { match: toFtsQuery("timeout"), statuses: ["failed"] },
        "duration",
        { id: "x", key: 9 },
        51,
      ),
    );
    expect(branchScans(rows)).toEqual([]);
    expect(rows.map((r) => r.detail)).toContainEqual("SEARCH d USING INTEGER PRIMARY KEY (rowid=?)");
  });
});

describe("status count query plans", () => {
  it("sum the RunTotal table without touching Run when no time range or search is given", () => {
    for (const f of [{}, { flowId: "flow-1" }, { channels: ["email", "cron"] }]) {
      const queries = buildCountQueries(f);
      expect(queries).toHaveLength(1);
      const rows = plan(queries[0]!);
      expect(rows.map((r) => r.detail).join("\n")).toMatch(/RunTotal/);
      expect(accessesOfRun(rows)).toEqual([]);
    }
  });

  it("take whole hours from RunCount and only the partial hours at the ends of a range from the list documents", () => {
    const fromMs = Date.parse("2026-05-01T10:20:00Z");
    const toMs = Date.parse("2026-05-03T08:45:00Z");
    const queries = buildCountQueries({ flowId: "flow-1", fromMs, toMs });
    expect(queries.map((q) => q.args)).toEqual([
      ["flow-1", "2026-05-01T11", "2026-05-03T08"],
      ["flow-1", "2026-05-01T10:20:00.000+00:00", "2026-05-01T11:00:00.000+00:00"],
      ["flow-1", "2026-05-03T08:00:00.000+00:00", "2026-05-03T08:45:00.000+00:00"],
    ]);
    for (const q of queries.slice(1)) {
      const reads = branchScans(plan(q));
      expect(reads).toHaveLength(1);
      expect(reads[0]!.detail).toMatch(/^SEARCH RunSearchDoc USING (COVERING )?INDEX/);
      expect(accessesOfRun(plan(q))).toEqual([]);
    }
  });

  it("count search matches from the full-text index, up to the cap", () => {
    const [q, ...rest] = buildCountQueries({ match: toFtsQuery("timeout"), channels: ["email"] });
    expect(rest).toEqual([]);
    expect(q!.args.at(-1)).toBe(10_001);
    const details = plan(q!).map((r) => r.detail);
    expect(details).toContainEqual("SEARCH d USING INTEGER PRIMARY KEY (rowid=?)");
    for (const d of details.filter((x) => /^SCAN /.test(x)))
      expect(d).toMatch(/^SCAN (RunSearch VIRTUAL TABLE|\(subquery-\d+\))/);
  });

  it("scan the list documents by index alone when the range lies within one hour", () => {
    const fromMs = Date.parse("2026-05-01T10:20:00Z");
    const queries = buildCountQueries({ fromMs, toMs: fromMs + 600_000 });
    expect(queries).toHaveLength(1);
    expect(queries[0]!.sql).toContain(`FROM "RunSearchDoc"`);
    expect(branchScans(plan(queries[0]!))[0]!.detail).toMatch(
      /USING (COVERING )?INDEX RunSearchDoc_createdAt_idx/,
    );
  });
});

describe("search text", () => {
  it("quotes each word as a prefix phrase, so FTS5 operators and quotes are plain text", () => {
    expect(toFtsQuery(`NEAR(a b) "x" -y alice@example.com`)).toBe(
      `"NEAR(a"* "b)"* """x"""* "-y"* "alice@example.com"*`,
    );
  });

  it("refuses text with no letter or digit, saying why", () => {
    expect(() => toFtsQuery(" %% -- ")).toThrow('search " %% -- " has no letter or digit to look for');
  });
});
