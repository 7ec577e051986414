import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { applyMigrations, openDatabase } from "@switchyard/db";
import type { Config } from "../config";
import { lockDataDir } from "../data-dir-lock";
import type { Logger } from "../logger";
import { createVault } from "../secrets/vault";
import { CliError, type CliIo, parse, showHelp, UsageError } from "./io";

export const credentialHelp = `Usage: switchyard credential list
       switchyard credential allow-hosts <name-or-id> <host-pattern>...
       switchyard credential rotate-key

list: each credential's name, type, id and the hosts it may be sent to.
allow-hosts: sets where an HTTP, SMTP or LLM credential may be sent (replacing the list), e.g.
  api.example.com or *.example.com (any subdomain). A credential stored without allowed hosts is
  refused by every node until it gets some.
rotate-key: re-encrypts every stored credential under a new random key, in one transaction. Run it with the
server stopped (the data dir is locked while it runs).
  Key in the data dir (secret.key): the new key replaces the file; the old key is gone.
  Key from SWITCHYARD_ENCRYPTION_KEY: the new key is printed once; set the variable to it before
  the next start, or no credential can be read.
Exit codes: 0 rotated, 1 failure, 2 usage error.`;

/** `switchyard credential list | allow-hosts | rotate-key`. */
export async function credentialCommand(
  args: string[],
  config: Config,
  _log: Logger,
  io: CliIo,
): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help")
    return showHelp(io, credentialHelp, sub ? 0 : 2);
  // These commands open the SQLite file directly; on scale-out the credentials live in PostgreSQL.
  if (config.scale)
    throw new CliError(
      "switchyard credential works on the SQLite data dir only; with SWITCHYARD_DATABASE_URL set, manage credentials in the web app or the API",
    );
  if (sub !== "rotate-key" && sub !== "list" && sub !== "allow-hosts")
    throw new UsageError(`unknown credential command '${sub}'`);
  const { values, positionals } = parse(rest, { help: { type: "boolean", short: "h" } });
  if (values.help) return showHelp(io, credentialHelp, 0);
  if (sub === "list" || sub === "allow-hosts") return editHosts(sub, positionals, config, io);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);

  const keyFile = path.join(config.dataDir, "secret.key");
  const nextFile = `${keyFile}.next`;
  const lock = lockDataDir(config.dataDir);
  try {
    let oldKey: Buffer;
    if (config.encryptionKey) oldKey = Buffer.from(config.encryptionKey, "base64");
    else if (existsSync(keyFile)) oldKey = Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64");
    else
      throw new CliError(
        `no key file at ${keyFile} and no SWITCHYARD_ENCRYPTION_KEY: nothing is encrypted yet`,
      );
    if (!config.encryptionKey && existsSync(nextFile))
      throw new CliError(`${nextFile} exists: an earlier rotation was interrupted`, [
        "If the server cannot read credentials with secret.key, the database already uses the new key:",
        `move ${nextFile} to ${keyFile}. Otherwise delete ${nextFile} and run this again.`,
      ]);

    const db = openDatabase(config.dbFile);
    try {
      applyMigrations(db.sql);
      const newKey = randomBytes(32);
      // The new key is on disk before the database uses it, so a crash in between loses nothing.
      if (!config.encryptionKey) {
        writeFileSync(nextFile, newKey.toString("base64"), { mode: 0o600, flag: "wx" });
        chmodSync(nextFile, 0o600);
      }
      let count: number;
      try {
        count = await createVault(db.prisma, oldKey).rotate(newKey);
      } catch (e) {
        if (!config.encryptionKey) rmSync(nextFile, { force: true });
        throw new CliError(
          `could not re-encrypt: ${e instanceof Error ? e.message : String(e)}; nothing was changed (is this the right key?)`,
        );
      }
      if (config.encryptionKey) {
        io.out(`re-encrypted ${count} credential${count === 1 ? "" : "s"} under a new key.`);
        io.out("Set SWITCHYARD_ENCRYPTION_KEY to this value before the next start:");
        io.out(newKey.toString("base64"));
      } else {
        renameSync(nextFile, keyFile);
        io.out(`re-encrypted ${count} credential${count === 1 ? "" : "s"} under a new key in ${keyFile}`);
      }
      return 0;
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
  }
}

/** `list` and `allow-hosts`: read the key as the server would, never create one. */
async function editHosts(
  sub: "list" | "allow-hosts",
  args: string[],
  config: Config,
  io: CliIo,
): Promise<number> {
  if (sub === "list" && args.length) throw new UsageError(`unexpected argument '${args[0]}'`);
  if (sub === "allow-hosts" && args.length < 2)
    throw new UsageError(
      "give the credential and at least one host pattern, e.g. allow-hosts Stripe api.stripe.com",
    );
  const keyFile = path.join(config.dataDir, "secret.key");
  const key =
    config.encryptionKey ?? (existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : undefined);
  if (!key)
    throw new CliError(
      `no key file at ${keyFile} and no SWITCHYARD_ENCRYPTION_KEY: no credential is stored yet`,
    );
  const lock = lockDataDir(config.dataDir);
  const db = openDatabase(config.dbFile);
  try {
    applyMigrations(db.sql);
    const vault = createVault(db.prisma, Buffer.from(key, "base64"));
    const rows = await vault.list();
    if (sub === "list") {
      for (const r of rows) {
        const hosts =
          r.allowedHosts === null
            ? "(no allowed hosts: sent nowhere until set with allow-hosts)"
            : r.allowedHosts.join(", ");
        io.out(`${r.name} (${r.type}, ${r.id}): ${r.type === "webhookSecret" ? "(inbound only)" : hosts}`);
      }
      return 0;
    }
    const [ref, ...patterns] = args as [string, ...string[]];
    const row = rows.find((r) => r.id === ref) ?? rows.find((r) => r.name === ref);
    if (!row) throw new CliError(`no credential named or with id '${ref}'`);
    try {
      const { allowedHosts } = await vault.setAllowedHosts(row.id, patterns.join(", "));
      io.out(`${row.name} may now be sent to: ${allowedHosts.join(", ")}`);
    } catch (e) {
      throw new CliError(e instanceof Error ? e.message : String(e));
    }
    return 0;
  } finally {
    await db.close();
    lock.release();
  }
}
