// Shared helpers for the root scripts. Plain Node (no dependencies): these run before anything is installed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const pnpmVersion = JSON.parse(
  readFileSync(path.join(root, "package.json"), "utf8"),
).packageManager.split("@")[1];
const toolsDir = path.join(root, ".tools");
const toolsBin = path.join(toolsDir, "node_modules", ".bin");

/** Environment for every child: local tools on PATH, native addons built against this Node, no telemetry. */
export function childEnv(extra = {}) {
  return {
    ...process.env,
    PATH: `${toolsBin}${path.delimiter}${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}`,
    // node-gyp would otherwise try to download headers, which fails offline.
    npm_config_nodedir: process.env.npm_config_nodedir ?? path.resolve(process.execPath, "../.."),
    NEXT_TELEMETRY_DISABLED: "1",
    TURBO_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
    PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, "scripts", "no-schema-engine.sh"),
    ...extra,
  };
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: "inherit",
    env: childEnv(opts.env),
    ...opts,
    shell: false,
  });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

export function step(msg) {
  console.log(`\n▸ ${msg}`);
}

function hashFiles(files) {
  const h = createHash("sha256");
  for (const f of files) {
    const p = path.join(root, f);
    h.update(f);
    h.update(existsSync(p) ? readFileSync(p) : "");
  }
  return h.digest("hex");
}

function stampIsCurrent(name, hash) {
  const file = path.join(root, "node_modules", `.switchyard-${name}`);
  return existsSync(file) && readFileSync(file, "utf8") === hash;
}

function writeStamp(name, hash) {
  writeFileSync(path.join(root, "node_modules", `.switchyard-${name}`), hash);
}

/** The pinned pnpm in .tools/ (no global install needed; works for non-root users). */
export function ensurePnpm() {
  const marker = path.join(toolsDir, "node_modules", "pnpm", "package.json");
  if (existsSync(marker) && JSON.parse(readFileSync(marker, "utf8")).version === pnpmVersion) return;
  step(`installing pnpm ${pnpmVersion} into .tools/`);
  mkdirSync(toolsDir, { recursive: true });
  run("npm", [
    "install",
    "--prefix",
    toolsDir,
    "--no-save",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `pnpm@${pnpmVersion}`,
  ]);
}

/** Installs dependencies and generates the Prisma client only when their inputs changed. */
export function ensureInstalled() {
  ensurePnpm();
  const manifests = [
    "package.json",
    "pnpm-lock.yaml",
    "pnpm-workspace.yaml",
    "apps/web/package.json",
    ...["contracts", "engine", "nodes", "agent", "memory", "db", "runtime", "import-n8n"].map(
      (p) => `packages/${p}/package.json`,
    ),
  ];
  const installHash = hashFiles(manifests);
  if (!existsSync(path.join(root, "node_modules")) || !stampIsCurrent("install", installHash)) {
    step("installing dependencies (first time takes about 2 minutes: better-sqlite3 compiles from source)");
    run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"]);
    writeStamp("install", installHash);
  }
  const schemaHash = hashFiles(["prisma/schema.prisma", "prisma/postgres/schema.prisma", "pnpm-lock.yaml"]);
  const clients = ["prisma", "prisma-pg"].map((c) =>
    path.join(root, `packages/db/src/generated/${c}/client.ts`),
  );
  if (!clients.every((c) => existsSync(c)) || !stampIsCurrent("prisma", schemaHash)) {
    // Two clients from one set of models: SQLite (embedded default) and PostgreSQL (prisma/postgres is
    // derived from prisma/schema.prisma by packages/db/scripts/postgres-schema.ts).
    step("generating the Prisma clients (SQLite and PostgreSQL)");
    for (const schema of ["../../prisma/schema.prisma", "../../prisma/postgres/schema.prisma"])
      run("pnpm", ["--filter", "@switchyard/db", "exec", "prisma", "generate", "--schema", schema]);
    writeStamp("prisma", schemaHash);
  }
}
