import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createHost } from "../host";
import { createLogger } from "../logger";
import { postEndlessBody } from "./endless-body";

const bin = fileURLToPath(new URL("../../bin/switchyard.mjs", import.meta.url));

const flow = {
  nodes: [
    {
      id: "hook",
      type: "trigger.webhook",
      config: { path: "small", responseMode: "sync", maxBodyBytes: 1024 },
    },
    { id: "respond", type: "webhook.respond", config: { status: 200, body: "={ 'ok': true }" } },
  ],
  edges: [{ from: { node: "hook", port: "main" }, to: { node: "respond", port: "main" } }],
};

describe("oversized webhook bodies", () => {
  it("answers a chunked body over the limit with 413 and the worker process keeps serving", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sy-oversized-"));
    const setup = await createHost(
      parseConfig({ SWITCHYARD_DATA_DIR: dir, LOG_LEVEL: "silent" }),
      createLogger("silent"),
      { seed: false },
    );
    await setup.control.setActive(
      (await setup.flows.create({ name: "Small bodies", definition: flow })).id,
      true,
    );
    await setup.close();

    const child = spawn(process.execPath, [bin, "worker"], {
      env: {
        ...process.env,
        SWITCHYARD_DATA_DIR: dir,
        PORT: "0",
        HOST: "127.0.0.1",
        SWITCHYARD_SMTP_PORT: "0",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      const port = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d) => {
          output += d;
          const m = /listening on [\d.]+:(\d+)/.exec(output);
          if (m) resolve(m[1]!);
        });
        child.once("exit", () => reject(new Error(`the worker exited before listening:\n${output}`)));
      });
      const url = `http://127.0.0.1:${port}`;

      const refused = await postEndlessBody(`${url}/hooks/small`);
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body).error).toEqual({
        code: "payload_too_large",
        message: "body exceeds the limit of 1024 bytes",
      });

      // The same process answers the next request: nothing threw after the 413 went out.
      const ok = await fetch(`${url}/hooks/small`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ ok: true });
      expect(child.exitCode).toBeNull();
      expect(output).not.toMatch(/TypeError|uncaught/i);
    } finally {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
