/**
 * Private broker processes for tests that kill or reconfigure the broker: each gets its own port and
 * data directory, so the machine's shared Mosquitto and RabbitMQ (other tests, CI) are never touched.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once something accepts TCP connections on the port (polling; the wait decides nothing). */
export async function waitForPort(port: number, what: string, tries = 600): Promise<void> {
  for (let i = 0; i < tries; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
      s.connect(port, "127.0.0.1");
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not open port ${port}`);
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once("exit", () => resolve()));

export interface PrivateMosquitto {
  port: number;
  /** SIGKILL: the broker vanishes without closing its sockets cleanly. */
  kill(): Promise<void>;
  /** Starts it again on the same port and config. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A Mosquitto on its own port; with `users`, anonymous clients are refused. */
export async function startMosquitto(o: { users?: Record<string, string> } = {}): Promise<PrivateMosquitto> {
  const dir = mkdtempSync(path.join(tmpdir(), "sy-mqtt-"));
  const port = await freePort();
  const lines = [`listener ${port} 127.0.0.1`, "persistence false", "user root", "log_dest none"];
  if (o.users) {
    const file = path.join(dir, "passwd");
    writeFileSync(file, "");
    for (const [user, pass] of Object.entries(o.users))
      execFileSync("mosquitto_passwd", ["-b", file, user, pass], { stdio: "ignore" });
    lines.push("allow_anonymous false", `password_file ${file}`);
  } else lines.push("allow_anonymous true");
  const conf = path.join(dir, "mosquitto.conf");
  writeFileSync(conf, `${lines.join("\n")}\n`);
  let child: ChildProcess;
  const start = async () => {
    child = spawn("mosquitto", ["-c", conf], { stdio: "ignore" });
    await waitForPort(port, "mosquitto");
  };
  await start();
  return {
    port,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    restart: start,
    async stop() {
      child.kill("SIGKILL");
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRabbit {
  port: number;
  /** The node's Erlang VM pid (what `kill` SIGKILLs). */
  pid(): number;
  kill(): Promise<void>;
  /** Starts the node again on the same data directory (durable queues and persistent messages survive). */
  restart(): Promise<void>;
  /**
   * Stops the node in order (SIGTERM) and starts it again: what it declared is then on disk. RabbitMQ 3.10 keeps
   * a fresh queue declaration in memory for a while; a SIGKILL seconds after it lost the queue itself.
   */
  restartCleanly(): Promise<void>;
  /** The node's log lines about recovering queues and messages at boot: what to read when messages went missing. */
  recoveryLog(): string[];
  stop(): Promise<void>;
}

/**
 * A RabbitMQ node of its own: own node name, ports, data, logs and Erlang cookie (HOME), no plugins.
 * guest/guest may log in from loopback. Starting takes a few seconds.
 */
export async function startRabbit(): Promise<PrivateRabbit> {
  const dir = mkdtempSync(path.join(tmpdir(), "sy-rabbit-"));
  const port = await freePort();
  const dist = await freePort();
  writeFileSync(
    path.join(dir, "rabbitmq.conf"),
    [`listeners.tcp.1 = 127.0.0.1:${port}`, "loopback_users = none", "log.console = false", ""].join("\n"),
  );
  writeFileSync(path.join(dir, "enabled_plugins"), "[].\n");
  const pidFile = path.join(dir, "rabbit.pid");
  const env = {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: `sy-test-${process.pid}-${port}@localhost`,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(dist),
    RABBITMQ_MNESIA_BASE: path.join(dir, "mnesia"),
    RABBITMQ_LOG_BASE: path.join(dir, "log"),
    RABBITMQ_CONFIG_FILE: path.join(dir, "rabbitmq.conf"),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, "enabled_plugins"),
    RABBITMQ_PID_FILE: pidFile,
  };
  let child: ChildProcess;
  const start = async () => {
    // The package's wrapper in /usr/sbin switches to the rabbitmq user; the script beside it runs as us.
    child = spawn("/usr/lib/rabbitmq/bin/rabbitmq-server", [], { env, cwd: dir, stdio: "ignore" });
    // Booting takes seconds on an idle machine, minutes on a loaded one; the wait decides nothing.
    await waitForPort(port, "rabbitmq-server", 3000);
  };
  const beamPid = () => Number(readFileSync(pidFile, "utf8").trim());
  const killBeam = async (signal: NodeJS.Signals = "SIGKILL") => {
    const pid = beamPid();
    try {
      process.kill(pid, signal);
    } catch {}
    // The VM is gone once its pid is; the wrapper script exits with it. (A SIGTERMed node shuts down in order,
    // which can take seconds on a loaded machine.)
    for (let i = 0; i < 1200; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await exited(child);
  };
  await start();
  return {
    port,
    pid: beamPid,
    kill: () => killBeam("SIGKILL"),
    restart: start,
    async restartCleanly() {
      await killBeam("SIGTERM");
      await start();
    },
    recoveryLog() {
      try {
        const file = path.join(env.RABBITMQ_LOG_BASE, `${env.RABBITMQ_NODENAME}.log`);
        return readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => /recover|rebuilding|message store|crash|error/i.test(l))
          .map((l) => l.replace(/^\S+ /, "").slice(0, 300));
      } catch (err) {
        return [`(no log: ${(err as Error).message})`];
      }
    },
    async stop() {
      await killBeam();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
