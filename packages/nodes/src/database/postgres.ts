import { sqlCredentialFields } from "@switchyard/contracts/credentials";
import type { Item } from "@switchyard/engine";
import type pg from "pg";
import { serviceError } from "../connections/errors";
import { poolsOf, serverTarget } from "../connections/server";
import { defineNode } from "../define";
import { NodeError } from "../errors";
import { isIpLiteral } from "../http/ssrf";
import { rowItems, sqlConfig, statementParams } from "./sql-shared";

const fields = sqlCredentialFields.omit({ allowedHosts: true });

/** SQLSTATE classes a retry can fix: lost connection, serialization/deadlock, resources, shutdown. */
function retryable(code: string | undefined): boolean {
  if (!code) return true;
  return /^(0800[0-6]|40|53|57P)/.test(code) && code !== "08P01";
}

/**
 * Runs one parameterised statement ($1..$n) per input item, all in one transaction: every item's
 * statement commits together, or a failure rolls back all of them. Rows come out as items.
 */
export const postgresQueryNode = defineNode({
  type: "postgres.query",
  typeVersion: 1,
  title: "PostgreSQL query",
  description: "Runs a parameterised SQL statement on PostgreSQL; rows become items.",
  category: "data",
  icon: "database",
  ports: ["main"],
  rawFields: ["query", "params"],
  config: sqlConfig("$1, $2, …"),
  example: {
    credentialId: "cred-pg",
    query: "SELECT id, email FROM customers WHERE country = $1",
    params: ["{{ item.country }}"],
  },
  async execute({ config, input, ctx, resolveForItem }) {
    const target = await serverTarget(ctx, {
      credentialId: config.credentialId,
      type: "postgres",
      fields,
      scheme: "postgres",
    });
    const { host, port, database, user, password, ssl } = target.fields;
    const perItem = await statementParams(config.params, input, resolveForItem, ctx.nodeId);
    const fail = (err: unknown, itemIndex?: number) => {
      if (err instanceof NodeError) return err;
      const code = (err as { code?: string }).code;
      const sqlState = code && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
      return serviceError(ctx.nodeId, "PostgreSQL", err, {
        retryable: retryable(sqlState),
        ...(sqlState ? { code: `SQLSTATE ${sqlState}` } : {}),
        ...(itemIndex === undefined ? {} : { itemIndex }),
      });
    };
    return poolsOf(ctx).use(
      target.poolKey,
      {
        async open() {
          // Drivers load on first use: a host that never queries PostgreSQL never pays for them.
          const { default: driver } = await import("pg");
          const pool = new driver.Pool({
            host: target.address.address,
            port: Number(port),
            database,
            user,
            password,
            ssl: ssl === "true" ? (isIpLiteral(host) ? {} : { servername: host }) : false,
            max: 5,
            idleTimeoutMillis: 30_000,
            connectionTimeoutMillis: config.timeoutMs,
          });
          // An idle client's connection dropping must not crash the host; the next query reconnects.
          pool.on("error", () => undefined);
          return pool;
        },
        close: (pool) => pool.end(),
      },
      async (pool) => {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (err) {
          throw fail(err);
        }
        const out: Item[] = [];
        let broken: unknown;
        let index: number | undefined;
        try {
          await client.query("BEGIN");
          // Server-side limit, so a slow statement stops on the server too, not only in this process.
          await client.query(`SET LOCAL statement_timeout = ${config.timeoutMs}`);
          for (const [i, values] of perItem.entries()) {
            index = i;
            // query_timeout (client side) backs up statement_timeout when the server stops answering.
            const query = { text: config.query, values, query_timeout: config.timeoutMs + 1000 };
            const res = await client.query(query as pg.QueryConfig);
            const returnsRows = res.fields.length > 0;
            out.push(...rowItems(returnsRows ? res.rows : undefined, res.rowCount ?? 0));
          }
          index = undefined;
          await client.query("COMMIT");
          return { items: out };
        } catch (err) {
          broken = err;
          await client.query("ROLLBACK").catch(() => undefined);
          throw fail(err, perItem.length > 1 ? index : undefined);
        } finally {
          // A client whose connection failed is dropped, not handed to the next run.
          const code = (broken as { code?: string } | undefined)?.code;
          client.release(broken !== undefined && !(code && /^[0-9A-Z]{5}$/.test(code)));
        }
      },
    );
  },
});
