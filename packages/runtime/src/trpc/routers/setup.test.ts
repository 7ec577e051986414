import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createAuthService,
  createHost,
  createLogger,
  type Host,
  parseConfig,
  scryptParams,
} from "../../index";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createContext } from "../context";
import { createCaller } from "./app";

let host: Host;
let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "switchyard-setup-"));
  host = await createHost(
    parseConfig({ SWITCHYARD_DATA_DIR: dir, SWITCHYARD_BASE_URL: "https://sy.example.com" }),
    createLogger("silent"),
    { seed: false },
  );
  host.auth = createAuthService({ db: host.db, log: host.log, scrypt: { ...scryptParams, N: 2 ** 10 } });
});
afterEach(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

const owner = { email: "owner@example.com", password: "owner password 1" };

/** A browser's tRPC request to a fresh instance: `url` is what it addressed, `client` its address. */
async function browser(url: string, client: string, extra: Record<string, string> = {}) {
  const u = new URL(url);
  const req = new Request(`${url}/api/trpc`, {
    headers: {
      host: u.host,
      origin: u.origin,
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": client,
      ...extra,
    },
  });
  return createCaller(await createContext(host, req, new Headers()));
}

describe("first-run setup", () => {
  it("refuses a DNS-rebinding page on this machine that tries to claim the owner account", async () => {
    const page = await browser("http://evil.example:3000", "127.0.0.1");
    await expect(page.auth.setup(owner)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message:
        "this Switchyard does not answer browser requests for 'evil.example:3000' (protection against DNS rebinding); if that is its address, add the name to SWITCHYARD_ALLOWED_HOSTS or set SWITCHYARD_BASE_URL",
    });
    expect(await host.auth.hasUsers()).toBe(false);
  });

  it("refuses a browser on another machine without the console's setup token, and with a wrong one", async () => {
    const remote = await browser("https://sy.example.com", "203.0.113.7");
    await expect(remote.auth.setup(owner)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message:
        "setting up from another machine needs the setup link printed on the server's console at start (…/setup?token=…)",
    });
    await expect(remote.auth.setup({ ...owner, token: "guessed" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message:
        "the setup token is wrong; open the setup link printed on the server's console at its latest start",
    });
    expect(await host.auth.hasUsers()).toBe(false);
  });

  it("lets a browser on another machine set up with the token printed at start", async () => {
    const token = (await host.auth.pendingSetupToken())!;
    const remote = await browser("https://sy.example.com", "203.0.113.7");
    const { user } = await remote.auth.setup({ ...owner, token });
    expect(user.role).toBe("owner");
    expect(await host.auth.pendingSetupToken()).toBeNull();
  });

  it("lets a browser on this machine at a loopback address set up without a token", async () => {
    const local = await browser("http://127.0.0.1:3000", "127.0.0.1");
    const { user } = await local.auth.setup(owner);
    expect(user.email).toBe("owner@example.com");
  });

  it("asks for the token behind a proxy on this machine that rewrote Host to its loopback upstream (nginx's default)", async () => {
    const viaNginx = await browser("https://sy.example.com", "127.0.0.1", { host: "127.0.0.1:3000" });
    await expect(viaNginx.auth.setup(owner)).rejects.toMatchObject({
      code: "FORBIDDEN",
      cause: { code: "setup_token_required" },
    });
  });

  it("asks for the token when the socket is local but the browser addressed another name (a proxy on this machine)", async () => {
    const viaLocalProxy = await browser("https://sy.example.com", "127.0.0.1");
    await expect(viaLocalProxy.auth.setup(owner)).rejects.toMatchObject({
      code: "FORBIDDEN",
      cause: { code: "setup_token_required" },
    });
  });
});
