import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A private Dovecot IMAP server for tests: its own config, passwd file, Maildir and base_dir in a
 * temp dir, listening on a free port of 127.0.0.1, run in the foreground as a child and stopped by
 * its pid. The machine's default instance (/etc/dovecot) is never read or started.
 * `scripts/ensure-dovecot.mjs` installs Debian's package for `npm test`.
 */
export const dovecotBinary = process.env.DOVECOT_PATH ?? "/usr/sbin/dovecot";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Resolves once something accepts connections on the port, or rejects when the child exited. */
async function acceptsConnections(port: number, child: ChildProcess, log: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `dovecot exited (${child.exitCode}): ${existsSync(log) ? readFileSync(log, "utf8") : ""}`,
      );
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function systemUser(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${name} user: install Debian's dovecot-imapd (scripts/ensure-dovecot.mjs)`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

export interface Dovecot {
  port: number;
  /** The implicit-TLS port (started with `tls`), else 0. */
  tlsPort: number;
  dir: string;
  /** The server log so far (for a failing test's message). */
  log(): string;
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startDovecot(
  users: Record<string, string>,
  opts: { tls?: boolean } = {},
): Promise<Dovecot> {
  const dir = mkdtempSync(path.join(tmpdir(), "sy-dovecot-"));
  // Dovecot's auth process runs as its own user and must reach the passwd file (test passwords only).
  chmodSync(dir, 0o755);
  for (const d of ["run", "state", "mail", "home"]) mkdirSync(path.join(dir, d));
  const port = await freePort();
  // With tls: a self-signed certificate for imap.test and an implicit-TLS listener on a second port.
  const tlsPort = opts.tls ? await freePort() : 0;
  if (opts.tls)
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=imap.test",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
  // Dovecot refuses to open mail as root: as root, mail belongs to the package's `dovecot` user.
  const self = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const { uid, gid } = self.uid === 0 ? systemUser("dovecot") : self;
  for (const d of ["mail", "home"]) chownSync(path.join(dir, d), uid, gid);
  const passwd = path.join(dir, "passwd");
  writeFileSync(
    passwd,
    Object.entries(users)
      .map(([u, p]) => `${u}:{PLAIN}${p}\n`)
      .join(""),
  );
  const log = path.join(dir, "dovecot.log");
  // As root Dovecot drops to its own users (from the Debian package) for logins; as anyone else it runs
  // every process as that user.
  const user = self.uid === 0 ? "" : (process.env.USER ?? "");
  writeFileSync(
    path.join(dir, "dovecot.conf"),
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${log}
protocols = imap
listen = 127.0.0.1
${opts.tls ? `ssl = yes\nssl_cert = <${dir}/cert.pem\nssl_key = <${dir}/key.pem\n` : "ssl = no\n"}disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
first_valid_uid = ${uid}
${user ? `default_internal_user = ${user}\ndefault_login_user = ${user}\n` : ""}service imap-login {
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = ${tlsPort}
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwd}
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/home/%u
}
`,
  );
  const conf = path.join(dir, "dovecot.conf");
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const launch = async () => {
    // Its own process group: an outage kills the sessions' imap processes too, not only the master.
    const c = spawn(dovecotBinary, ["-F", "-c", conf], { stdio: "ignore", detached: true });
    child = c;
    exited = new Promise<void>((r) => c.once("exit", () => r()));
    await acceptsConnections(port, c, log);
  };
  const kill = async () => {
    if (child && child.exitCode === null) {
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    }
  };
  try {
    await launch();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    tlsPort,
    dir,
    log: () => (existsSync(log) ? readFileSync(log, "utf8") : ""),
    /** Kills the server and its sessions (an outage), keeping its mail: `resume` starts it again on the same port. */
    pause: kill,
    resume: launch,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
