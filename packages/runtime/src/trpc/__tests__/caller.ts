import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createAuthService,
  createHost,
  createLogger,
  type Host,
  parseConfig,
  type Role,
  scryptParams,
} from "../../index";
import { createContext } from "../context";
import { createCaller } from "../routers/app";

export const testOrigin = "http://localhost:3000";
export const owner = { email: "owner@example.com", password: "owner password 1" };

/** The tRPC context a real request with these headers would get (same-origin browser request by default). */
export async function contextFor(host: Host, headers: Record<string, string> = {}) {
  const req = new Request(`${testOrigin}/api/trpc`, {
    headers: { host: "localhost:3000", origin: testOrigin, ...headers },
  });
  const resHeaders = new Headers();
  return { ctx: await createContext(host, req, resHeaders), resHeaders };
}

/**
 * A real host on a temp data dir with its owner set up. `caller` is signed in as that owner;
 * `as(role)` creates and signs in another user; `anonymous` carries no credentials.
 */
export async function testCaller(opts: { seed?: boolean } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-web-"));
  const host: Host = await createHost(
    parseConfig({ SWITCHYARD_DATA_DIR: dir }),
    createLogger("silent"),
    opts,
  );
  // Real scrypt at a lower cost keeps the suite fast; hashing strength and timing are tested at full cost.
  host.auth = createAuthService({ db: host.db, log: host.log, scrypt: { ...scryptParams, N: 2 ** 10 } });
  const setup = await host.auth.setup(owner, { local: true });
  // The context is resolved on every call, as a real HTTP request would: role changes and sign-outs show at once.
  const withHeaders = async (headers: Record<string, string>) =>
    createCaller(async () => (await contextFor(host, headers)).ctx);
  const session = (token: string) => withHeaders({ cookie: `sy_session=${token}` });
  let n = 0;
  return {
    host,
    ownerUser: setup.user,
    ownerToken: setup.token,
    caller: await session(setup.token),
    anonymous: await withHeaders({}),
    withHeaders,
    session,
    /** A new user with this role, signed in through the real sign-in path. */
    async as(role: Role) {
      const email = `${role}${++n}@example.com`;
      const password = `${role} password ${n}`;
      const user = await host.auth.createUser(setup.user.id, { email, password, role });
      const s = await host.auth.signIn({ email, password, ip: "127.0.0.1" });
      return { user, token: s.token, caller: await session(s.token) };
    },
    async cleanup() {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
