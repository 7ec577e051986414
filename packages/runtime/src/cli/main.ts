import { parseArgs } from "node:util";
import { userCommand } from "../auth/cli";
import { ConfigError, parseConfig } from "../config";
import { DataDirLockedError } from "../data-dir-lock";
import { createHost } from "../host";
import { createLogger } from "../logger";
import { version } from "../version";
import { startCommand } from "./start";
import { workerCommand } from "./worker";

const help = `switchyard ${version} — self-hosted flow automation

Usage: switchyard <command> [options]

Commands:
  start          run the web app, API, triggers and workers in one process
  worker         run triggers, webhooks and workers without the web app
  migrate        apply pending database migrations and exit
  user create    create a user (see switchyard user --help)
  version        print the version

Options:
  -h, --help     show this help

Configuration comes from environment variables (see README.md).
Exit codes: 0 ok, 1 failure, 2 usage error.`;

export class UsageError extends Error {
  override name = "UsageError";
}

/** Runs the CLI; returns the exit code instead of exiting so tests can call it. */
export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { help: { type: "boolean", short: "h" } },
  });
  const [command] = positionals;
  if ((values.help && command !== "user") || command === "help" || !command) {
    console.log(help);
    return command || values.help ? 0 : 2;
  }
  try {
    if (command === "version") {
      console.log(version);
      return 0;
    }
    const config = parseConfig(env);
    const log = createLogger(config.logLevel);
    switch (command) {
      case "start":
        await startCommand(config, log);
        return -1; // keeps running
      case "user":
        return await userCommand(argv.slice(argv.indexOf("user") + 1), config, log, {
          stdin: process.stdin,
          out: (line) => console.log(line),
          err: (line) => console.error(line),
        });
      case "worker":
        await workerCommand(config, log);
        return -1;
      case "migrate": {
        const host = await createHost(config, log, { seed: false });
        await host.close();
        console.log(`database at ${config.dbFile} is up to date`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command '${command}' (see switchyard --help)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`switchyard: ${e.message}`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof DataDirLockedError || (e instanceof Error && e.name === "MigrationError")) {
      console.error(`switchyard: ${e.message}`);
      return 1;
    }
    console.error(`switchyard: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  }
}
