import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "./logger";
import { lazyWebApp } from "./web";

// A stand-in `next` package in a temp app folder: it records when it is loaded and prepared, and its
// handler answers with the number of prepares, so a test sees exactly when and how often the app loads.
function fakeApp(opts: { built?: boolean; failFirstPrepare?: boolean } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "sy-web-"));
  writeFileSync(path.join(dir, "package.json"), '{"name":"fake-web"}');
  if (opts.built !== false) {
    mkdirSync(path.join(dir, ".next"));
    writeFileSync(path.join(dir, ".next", "BUILD_ID"), "test");
  }
  mkdirSync(path.join(dir, "node_modules", "next"), { recursive: true });
  writeFileSync(
    path.join(dir, "node_modules", "next", "index.js"),
    `globalThis.__fakeNext ??= { loads: 0, prepares: 0 };
     globalThis.__fakeNext.loads++;
     module.exports = () => ({
       async prepare() {
         const n = ++globalThis.__fakeNext.prepares;
         if (${opts.failFirstPrepare === true} && n === 1) throw new Error("prepare exploded");
         await new Promise((r) => setImmediate(r));
       },
       getRequestHandler: () => (req, res) => res.end("page " + globalThis.__fakeNext.prepares),
     });`,
  );
  dirs.push(dir);
  return dir;
}

const dirs: string[] = [];
let server: Server | undefined;
afterEach(() => {
  server?.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete (globalThis as { __fakeNext?: unknown }).__fakeNext;
});
const counters = () => (globalThis as { __fakeNext?: { loads: number; prepares: number } }).__fakeNext;

async function serve(dir: string): Promise<string> {
  const handler = lazyWebApp({ dir, hostname: "127.0.0.1", port: 0 }, createLogger("silent"));
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe("the lazily loaded web app", () => {
  it("refuses a folder without a build at start, naming the folder", () => {
    const dir = fakeApp({ built: false });
    expect(() => lazyWebApp({ dir, hostname: "127.0.0.1", port: 0 }, createLogger("silent"))).toThrow(
      `the web app in ${dir} is not built; run \`npm start\` (it builds) or \`pnpm --filter @switchyard/web build\``,
    );
  });

  it("loads Next.js only at the first UI request, once for concurrent requests, and serves every request", async () => {
    const url = await serve(fakeApp());
    expect(counters()).toBeUndefined();
    const pages = await Promise.all([1, 2, 3].map(() => fetch(`${url}/flows`).then((r) => r.text())));
    expect(pages).toEqual(["page 1", "page 1", "page 1"]);
    expect(await (await fetch(`${url}/runs`)).text()).toBe("page 1");
    expect(counters()).toEqual({ loads: 1, prepares: 1 });
  });

  it("answers 500 with the reason when loading fails, and loads again at the next request", async () => {
    const url = await serve(fakeApp({ failFirstPrepare: true }));
    const failed = await fetch(`${url}/flows`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({
      error: { code: "internal", message: "the web app failed to load: prepare exploded" },
    });
    expect(await (await fetch(`${url}/flows`)).text()).toBe("page 2");
  });
});
