import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTempPostgresDatabase } from "@switchyard/db/testing";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../cli/main";
import { parseConfig } from "../config";
import { testRedisUrl } from "./__tests__/cluster";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(args: string[], env: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "sy-startup-"));
  dirs.push(dir);
  const err: string[] = [];
  const code = await main(
    args,
    { SWITCHYARD_DATA_DIR: dir, LOG_LEVEL: "silent", ...env },
    {
      stdin: process.stdin,
      out: () => {},
      err: (l) => err.push(l),
    },
  );
  return { code, err, files: readdirSync(dir) };
}

describe("start-up checks on scale-out", () => {
  it("stops a worker with one line naming SWITCHYARD_DATABASE_URL when PostgreSQL does not answer, writing nothing", async () => {
    const r = await run(["worker"], {
      SWITCHYARD_DATABASE_URL: "postgres://sy:secret@127.0.0.1:1/switchyard",
      SWITCHYARD_REDIS_URL: testRedisUrl,
    });
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      "switchyard: cannot reach PostgreSQL at SWITCHYARD_DATABASE_URL=postgres://sy:***@127.0.0.1:1/switchyard: connect ECONNREFUSED 127.0.0.1:1",
    ]);
    expect(r.files).toEqual([]);
  });

  it("stops web with one line naming SWITCHYARD_REDIS_URL when Redis does not answer, before migrating anything", async () => {
    const db = await createTempPostgresDatabase();
    try {
      const r = await run(["web", "--no-ui"], {
        SWITCHYARD_DATABASE_URL: db.url,
        SWITCHYARD_REDIS_URL: "redis://127.0.0.1:1",
      });
      expect(r.code).toBe(1);
      expect(r.err).toEqual([
        "switchyard: cannot reach Redis at SWITCHYARD_REDIS_URL=redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1",
      ]);
      expect(r.files).toEqual([]);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const tables = await c.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
      await c.end();
      expect(tables.rows).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it("refuses one half of scale-out without the other, naming both variables", () => {
    expect(() => parseConfig({ SWITCHYARD_DATABASE_URL: "postgres://127.0.0.1/sy" })).toThrow(
      "invalid environment: SWITCHYARD_DATABASE_URL is set but SWITCHYARD_REDIS_URL is not; scale-out needs both (PostgreSQL for state, Redis for the run queue)",
    );
    expect(() => parseConfig({ SWITCHYARD_REDIS_URL: "redis://127.0.0.1" })).toThrow(
      "invalid environment: SWITCHYARD_REDIS_URL is set but SWITCHYARD_DATABASE_URL is not",
    );
  });

  it("names the variable of a URL that is not PostgreSQL's or Redis's", () => {
    expect(() =>
      parseConfig({ SWITCHYARD_DATABASE_URL: "mysql://x", SWITCHYARD_REDIS_URL: "redis://x" }),
    ).toThrow(
      'invalid environment variable SWITCHYARD_DATABASE_URL="mysql://x": expected a PostgreSQL URL, e.g. postgres://user:pass@db:5432/switchyard',
    );
  });

  it("refuses `switchyard web` without scale-out, pointing at `switchyard start`", async () => {
    const r = await run(["web"], {});
    expect(r.code).toBe(2);
    expect(r.err[0]).toBe(
      "switchyard: switchyard web needs SWITCHYARD_DATABASE_URL and SWITCHYARD_REDIS_URL (one process on SQLite: switchyard start) (see switchyard --help)",
    );
    expect(r.files).toEqual([]);
  });
});
