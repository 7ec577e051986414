import type { Config } from "../config";
import type { Logger } from "../logger";
import { scopes as allScopes, type Scope } from "../auth/schemas";
import { localOnlyBackend } from "./backend";
import { CliError, type CliIo, parse, showHelp, printJson, UsageError } from "./io";

export const apikeyHelp = `Usage: switchyard apikey create --name NAME [--scope read,write] [--user EMAIL] [--json]

Creates an API key on the local data dir (stop the server first, or create keys in the web app).
The key is printed once, on its own line; only its hash is stored.
  --scope     read, write or read,write (default read,write)
  --user      the account the key acts as (default: the first owner)
Exit codes: 0 created, 1 failure, 2 usage error.`;

export async function apikeyCommand(args: string[], config: Config, log: Logger, io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help")
    return showHelp(io, apikeyHelp, sub ? 0 : 2);
  if (sub !== "create") throw new UsageError(`unknown apikey command '${sub}'`);
  const { values, positionals } = parse(rest, {
    help: { type: "boolean", short: "h" },
    json: { type: "boolean" },
    name: { type: "string" },
    scope: { type: "string" },
    user: { type: "string" },
  });
  if (values.help) return showHelp(io, apikeyHelp, 0);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (!values.name) throw new UsageError("--name is required");
  const scopes = (values.scope ?? "read,write").split(",").map((s) => s.trim());
  for (const s of scopes)
    if (!(allScopes as readonly string[]).includes(s))
      throw new UsageError(`unknown scope '${s}' (use ${allScopes.join(", ")})`);

  const backend = localOnlyBackend(config, log, "apikey create");
  try {
    const host = await backend.host("apikey create");
    const users = await host.auth.listUsers();
    const user = values.user
      ? users.find((u) => u.email === values.user!.trim().toLowerCase())
      : users
          .filter((u) => u.role === "owner")
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
    if (!user) {
      throw new CliError(
        values.user
          ? `no user ${values.user}`
          : "there is no owner yet; create one first: switchyard user create --owner --email E --password-stdin",
      );
    }
    const { key, apiKey } = await host.auth.createApiKey(user.id, user.id, {
      name: values.name,
      scopes: scopes as Scope[],
    });
    if (values.json) {
      printJson(io, {
        id: apiKey.id,
        name: apiKey.name,
        prefix: apiKey.prefix,
        scopes: apiKey.scopes,
        user: user.email,
        role: user.role,
        createdAt: apiKey.createdAt.toISOString(),
        key,
      });
    } else {
      io.out(key);
      io.err(
        `created API key "${apiKey.name}" (${apiKey.scopes.join(", ")}) acting as ${user.role} ${user.email}; it is shown only this once`,
      );
    }
    return 0;
  } catch (e) {
    if (e instanceof Error && e.name === "AuthError") throw new CliError(e.message);
    throw e;
  } finally {
    await backend.close();
  }
}
