import { parseArgs } from "node:util";
import type { Config } from "../config";
import { refuseRemote } from "../cli/io";
import { createHost } from "../host";
import type { Logger } from "../logger";
import { roles } from "./schemas";

export const userHelp = `Usage: switchyard user create --email <address> --password-stdin [--owner | --role <role>] [--name <name>]

Creates a user. The password is read from standard input (one line), never from the command line.
  --owner            create an owner (the first user of a fresh install should be one)
  --role <role>      ${roles.join(" | ")} (default editor)
Exit codes: 0 created, 1 failure (e.g. the address exists, the password is too short), 2 usage error.`;

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  out(line: string): void;
  err(line: string): void;
}

async function readPassword(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.length > 4096) break;
  }
  // Only the line break a shell or `echo` adds is removed: spaces can be part of a password.
  return text.split(/\r?\n/)[0] ?? "";
}

/** `switchyard user …`; returns the exit code. */
export async function userCommand(args: string[], config: Config, log: Logger, io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseUserArgs>;
  try {
    parsed = parseUserArgs(args);
  } catch (e) {
    io.err(`switchyard: ${e instanceof Error ? e.message : String(e)}\n\n${userHelp}`);
    return 2;
  }
  if (parsed === "help") {
    io.out(userHelp);
    return 0;
  }
  refuseRemote(config, "user create");
  const password = await readPassword(io.stdin);
  const host = await createHost(config, log, { seed: false });
  try {
    const user = await host.auth.createUser(null, { ...parsed, password }, "cli");
    io.out(`created ${user.role} ${user.email}`);
    return 0;
  } catch (e) {
    if (e instanceof Error && e.name === "AuthError") {
      io.err(`switchyard: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await host.close();
  }
}

function parseUserArgs(args: string[]) {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: "boolean", short: "h" },
      email: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      owner: { type: "boolean" },
      "password-stdin": { type: "boolean" },
    },
  });
  if (values.help) return "help" as const;
  const [sub, ...rest] = positionals;
  if (sub !== "create") throw new Error(sub ? `unknown user command '${sub}'` : "missing user command");
  if (rest.length) throw new Error(`unexpected argument '${rest[0]}'`);
  if (!values.email) throw new Error("--email is required");
  if (!values["password-stdin"])
    throw new Error("--password-stdin is required (passwords are not accepted as arguments)");
  if (values.owner && values.role && values.role !== "owner") throw new Error("--owner and --role disagree");
  const role = values.owner ? "owner" : (values.role ?? "editor");
  if (!(roles as readonly string[]).includes(role))
    throw new Error(`--role must be one of ${roles.join(", ")}`);
  return { email: values.email, name: values.name ?? "", role: role as (typeof roles)[number] };
}
