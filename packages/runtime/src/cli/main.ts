import { parseArgs } from "node:util";
import { type Config, ConfigError, parseConfig } from "../config";
import { DataDirLockedError } from "../data-dir-lock";
import { createLogger, type Logger } from "../logger";
import { version } from "../version";
import { CliError, type CliIo, parse, showHelp, UsageError } from "./io";

export { UsageError };

const help = `switchyard ${version} — self-hosted flow automation

Usage: switchyard <command> [options]

Server:
  start          run the web app, API, triggers and workers in one process
  worker         SQLite: run triggers, webhooks, the REST API and workers without the web app;
                 scale-out (SWITCHYARD_DATABASE_URL + SWITCHYARD_REDIS_URL): execute queued runs only
  web            scale-out: the web app, API, webhooks, e-mail and cron; runs go to the workers
                 (--no-ui: without the web app)
  migrate        apply pending database migrations and exit

Accounts:
  user create    create a user (switchyard user --help)
  credential list | allow-hosts | rotate-key   where credentials may be sent; re-encrypt under a new key (switchyard credential --help)
  apikey create  create an API key (switchyard apikey --help)

Flows and runs (switchyard flow --help, run --help, memory --help):
  flow list | import | export | validate | activate | deactivate | run
  run list | show | cancel | rerun
  memory import | add | search

  version        print the version

Client commands work on the local data dir (SWITCHYARD_DATA_DIR), or on a running server with
--url URL --api-key KEY (or SWITCHYARD_URL and SWITCHYARD_API_KEY). --json prints the REST API's
JSON (docs/cli.md). Configuration comes from environment variables (README.md).
Exit codes: 0 ok, 1 failure, 2 usage error.`;

const defaultIo = (): CliIo => ({
  stdin: process.stdin,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});

/** Runs the CLI; returns the exit code instead of exiting so tests can call it (-1: keeps running). */
export async function main(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CliIo = defaultIo(),
): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { help: { type: "boolean", short: "h" } },
  });
  const [command] = positionals;
  const at = command ? argv.indexOf(command) : -1;
  const rest = command ? argv.slice(at + 1) : [];
  const helpAt = argv.findIndex((a) => a === "-h" || a === "--help");
  // `switchyard --help flow` is the global help; `switchyard flow --help` is the command's own.
  if (!command || command === "help" || (values.help && helpAt < at)) {
    io.out(help);
    return command || values.help ? 0 : 2;
  }
  try {
    if (command === "version") {
      io.out(version);
      return 0;
    }
    const config = parseConfig(env);
    const log = createLogger(config.logLevel);
    return await dispatch(command, rest, config, log, io);
  } catch (e) {
    if (e instanceof UsageError) {
      const known = ["user", "apikey", "flow", "run", "memory", "credential"].includes(command);
      io.err(`switchyard: ${e.message} (see switchyard ${known ? `${command} ` : ""}--help)`);
      return 2;
    }
    if (e instanceof CliError) {
      io.err([`switchyard: ${e.message}`, ...e.lines].join("\n"));
      return 1;
    }
    if (
      e instanceof ConfigError ||
      e instanceof DataDirLockedError ||
      (e instanceof Error && ["MigrationError", "StartupCheckError", "ListenError"].includes(e.name))
    ) {
      io.err(`switchyard: ${e.message}`);
      return 1;
    }
    io.err(`switchyard: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  }
}

// Commands are loaded on use: `version` and `flow validate` start fast without the host's modules.
async function dispatch(
  command: string,
  rest: string[],
  config: Config,
  log: Logger,
  io: CliIo,
): Promise<number> {
  const open = async (values: { url?: string; "api-key"?: string }) => {
    const { openBackend } = await import("./backend");
    return openBackend(config, log, { url: values.url, apiKey: values["api-key"] });
  };
  if (command === "web") {
    const { values, positionals } = parse(rest, {
      help: { type: "boolean", short: "h" },
      "no-ui": { type: "boolean" },
    });
    if (values.help) return showHelp(io, help, 0);
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    await (await import("./web")).webCommand(config, log, { ui: !values["no-ui"] });
    return -1;
  }
  if (["start", "worker", "migrate"].includes(command)) {
    const { values, positionals } = parse(rest, { help: { type: "boolean", short: "h" } });
    if (values.help) return showHelp(io, help, 0);
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  }
  switch (command) {
    case "start":
      await (await import("./start")).startCommand(config, log);
      return -1;
    case "worker":
      await (await import("./worker")).workerCommand(config, log);
      return -1;
    case "migrate": {
      const { createHost } = await import("../host");
      const host = await createHost(config, log, { seed: false });
      await host.close();
      io.out(`database at ${config.scale ? "SWITCHYARD_DATABASE_URL" : config.dbFile} is up to date`);
      return 0;
    }
    case "user":
      return await (await import("../auth/cli")).userCommand(rest, config, log, io);
    case "apikey":
      return await (await import("./apikey")).apikeyCommand(rest, config, log, io);
    case "flow":
      return await (await import("./flow")).flowCommand(rest, open, io);
    case "run":
      return await (await import("./run")).runCommand(rest, open, io);
    case "memory":
      return await (await import("./memory")).memoryCommand(rest, open, io);
    case "credential":
      return await (await import("./credential")).credentialCommand(rest, config, log, io);
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}
