import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHost, createLogger, type Host, parseConfig } from "@switchyard/runtime";
import { createCaller } from "../routers/app";

/** A real host on a temp data dir and a tRPC caller bound to it. */
export async function testCaller(opts: { seed?: boolean } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-web-"));
  const host: Host = await createHost(parseConfig({ SWITCHYARD_DATA_DIR: dir }), createLogger("silent"), opts);
  return {
    host,
    caller: createCaller({ host }),
    async cleanup() {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
