// The IMAP trigger's tests start their own Dovecot (its own port, config and mail dir in a temp dir);
// this installs Debian's package when it is missing. Nothing here starts the system-wide instance.
import { existsSync } from "node:fs";
import { run, step } from "./lib.mjs";

export const dovecotPath = process.env.DOVECOT_PATH ?? "/usr/sbin/dovecot";

export function ensureDovecot() {
  if (existsSync(dovecotPath)) return;
  if (process.getuid?.() === 0) {
    step("installing Debian's dovecot-imapd for the IMAP trigger tests");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "dovecot-imapd"], { env: { DEBIAN_FRONTEND: "noninteractive" } });
    return;
  }
  console.error(
    `\n✗ The IMAP trigger tests need Dovecot at ${dovecotPath}.\n  Install it with: sudo apt-get install -y dovecot-imapd\n  (or set DOVECOT_PATH to another dovecot binary)`,
  );
  process.exit(1);
}
