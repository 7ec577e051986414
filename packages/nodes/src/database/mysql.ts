import { sqlCredentialFields } from "@switchyard/contracts/credentials";
import type { Item } from "@switchyard/engine";
import net from "node:net";
import type mysql from "mysql2/promise";
import { NETWORK_CODES, serviceError } from "../connections/errors";
import { poolsOf, serverTarget } from "../connections/server";
import { defineNode } from "../define";
import { NodeError } from "../errors";
import { isIpLiteral } from "../http/ssrf";
import { rowItems, sqlConfig, statementParams } from "./sql-shared";

const fields = sqlCredentialFields.omit({ allowedHosts: true });

/** Errors a retry can fix: lost connections, deadlocks and lock waits, a server going away. */
const RETRYABLE = new Set([
  ...NETWORK_CODES,
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "ER_LOCK_DEADLOCK",
  "ER_LOCK_WAIT_TIMEOUT",
  "ER_SERVER_SHUTDOWN",
  "ER_CON_COUNT_ERROR",
]);

/**
 * Runs one prepared statement (`?` placeholders) per input item on MySQL or MariaDB, all in one
 * transaction: every item's statement commits together, or a failure rolls back all of them.
 */
export const mysqlQueryNode = defineNode({
  type: "mysql.query",
  typeVersion: 1,
  title: "MySQL query",
  description: "Runs a parameterised SQL statement on MySQL or MariaDB; rows become items.",
  category: "data",
  icon: "database",
  ports: ["main"],
  rawFields: ["query", "params"],
  config: sqlConfig("?"),
  example: {
    credentialId: "cred-mysql",
    query: "SELECT id, email FROM customers WHERE country = ?",
    params: ["{{ item.country }}"],
  },
  async execute({ config, input, ctx, resolveForItem }) {
    const target = await serverTarget(ctx, {
      credentialId: config.credentialId,
      type: "mysql",
      fields,
      scheme: "mysql",
    });
    const { host, port, database, user, password, ssl } = target.fields;
    const perItem = await statementParams(config.params, input, resolveForItem, ctx.nodeId);
    const fail = (err: unknown, itemIndex?: number) => {
      if (err instanceof NodeError) return err;
      const code = (err as { code?: string }).code;
      return serviceError(ctx.nodeId, "MySQL", err, {
        retryable: code === undefined || RETRYABLE.has(code),
        ...(code && !NETWORK_CODES.has(code) ? { code } : {}),
        ...(itemIndex === undefined ? {} : { itemIndex }),
      });
    };
    return poolsOf(ctx).use(
      target.poolKey,
      {
        // Drivers load on first use: a host that never queries MySQL never pays for them.
        open: async () =>
          (await import("mysql2/promise")).default.createPool({
            port: Number(port),
            database,
            user,
            password,
            // With TLS the driver verifies the certificate against `host`, so it gets the name while the
            // socket goes to the vetted address; without TLS it simply connects to that address.
            ...(ssl === "true"
              ? {
                  host,
                  ssl: { rejectUnauthorized: true, verifyIdentity: !isIpLiteral(host) },
                  stream: () => net.connect(Number(port), target.address.address),
                }
              : { host: target.address.address }),
            connectionLimit: 5,
            maxIdle: 1,
            idleTimeout: 30_000,
            connectTimeout: config.timeoutMs,
            enableKeepAlive: true,
          }),
        close: (pool) => pool.end(),
      },
      async (pool) => {
        let conn: mysql.PoolConnection;
        try {
          conn = await pool.getConnection();
        } catch (err) {
          throw fail(err);
        }
        const out: Item[] = [];
        let index: number | undefined;
        let broken = false;
        try {
          await conn.beginTransaction();
          for (const [i, values] of perItem.entries()) {
            index = i;
            const [result] = await conn.execute({ sql: config.query, values, timeout: config.timeoutMs });
            if (Array.isArray(result)) out.push(...rowItems(result as Record<string, unknown>[], 0));
            else out.push(...rowItems(undefined, (result as mysql.ResultSetHeader).affectedRows));
          }
          index = undefined;
          await conn.commit();
          return { items: out };
        } catch (err) {
          const code = (err as { code?: string }).code;
          // A timed-out or lost connection is dropped; a statement the server refused leaves it usable.
          broken = code === undefined || RETRYABLE.has(code);
          if (!broken) await conn.rollback().catch(() => undefined);
          throw fail(err, perItem.length > 1 ? index : undefined);
        } finally {
          if (broken) conn.destroy();
          else conn.release();
        }
      },
    );
  },
});
