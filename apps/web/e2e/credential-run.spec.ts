import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { ensureOwner } from "./support/auth";
import { startServer, tempDataDir, trpc } from "./support/server";

const SECRET = "tok-live-9f3c2a7be1d04455";
const owner = { email: "ops@example.com", password: "a long enough password", name: "Ops" };

/** An upstream API that records what Switchyard sent it. */
let upstream: Server;
let upstreamUrl: string;
const seenAuth: string[] = [];
test.beforeAll(async () => {
  upstream = createServer((req, res) => {
    seenAuth.push(String(req.headers.authorization ?? ""));
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ customer: "Ada", plan: "pro" }));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/customers/42`;
});
test.afterAll(() => new Promise((r) => upstream.close(r)));

test("setup → sign in → credential → http.request run: the secret never reaches the page, the network or the trace", async ({
  page,
}, testInfo) => {
  const dir = tempDataDir();
  const server = await startServer(dir, {}, { setupOwner: false });
  const bodies: Promise<string>[] = [];
  page.on("response", (r) =>
    bodies.push(
      r.body().then(
        (b) => b.toString("utf8"),
        () => "",
      ),
    ),
  );
  try {
    await page.goto(`${server.url}/flows`);
    await expect(page).toHaveURL(/\/setup$/);
    await page.getByLabel("E-mail").fill(owner.email);
    await page.getByLabel("Your name (optional)").fill(owner.name);
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByLabel("Repeat the password").fill(owner.password);
    await page.getByRole("button", { name: "Create owner account" }).click();
    await expect(page).toHaveURL(/\/flows$/);

    // Sign out and back in through the form.
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await page.getByLabel("E-mail").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/flows$/);

    // The credential, through its form.
    await page.goto(`${server.url}/settings/credentials`);
    const form = page.getByRole("form", { name: "New credential" });
    await form.getByLabel("Name").fill("CRM token");
    await form.getByLabel("Type").selectOption({ label: "Bearer token" });
    await form.getByLabel("Token").fill(SECRET);
    await form.getByLabel("Allowed hosts").fill("127.0.0.1");
    await form.getByRole("button", { name: "Save credential" }).click();
    await expect(page.getByRole("region", { name: "New credential" }).getByRole("status")).toContainText(
      "Saved “CRM token”",
    );

    // The test process signs in as the same owner to build the flow over tRPC.
    await ensureOwner(server.url, owner);
    const creds = await trpc<{ id: string; name: string }[]>(server.url, "credential.list");
    const credentialId = creds.find((c) => c.name === "CRM token")!.id;
    await trpc(server.url, "settings.network.set", { allowHosts: ["127.0.0.1"] }, "mutation");
    const definition = {
      nodes: [
        { id: "start", type: "trigger.manual", position: { x: 0, y: 0 } },
        {
          id: "crm",
          type: "http.request",
          config: { url: upstreamUrl, auth: { type: "bearer", credentialId } },
          position: { x: 260, y: 0 },
        },
      ],
      edges: [{ from: { node: "start", port: "main" }, to: { node: "crm", port: "main" } }],
    };
    const { id } = await trpc<{ id: string }>(
      server.url,
      "flow.create",
      { name: "Look up customer", definition },
      "mutation",
    );

    // Run it from the editor.
    await page.goto(`${server.url}/flows/${id}`);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.locator(".react-flow__node[data-id='crm']").getByTestId("node-status")).toHaveText(
      /succeeded/i,
      {
        timeout: 20_000,
      },
    );
    expect(seenAuth).toContain(`Bearer ${SECRET}`);

    const runs = await trpc<{ runs: { id: string; status: string }[] }>(server.url, "run.list", {
      flowId: id,
    });
    expect(runs.runs[0]?.status).toBe("succeeded");
    const run = await trpc<unknown>(server.url, "run.get", { id: runs.runs[0]!.id });
    expect(JSON.stringify(run)).toContain("Ada");
    expect(JSON.stringify(run)).not.toContain(SECRET);

    await page.goto(`${server.url}/runs/${runs.runs[0]!.id}`);
    await expect(page.getByText("succeeded").first()).toBeVisible();
    expect(await page.content()).not.toContain(SECRET);
    await testInfo.attach("run-page", {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
    for (const body of await Promise.all(bodies)) expect(body).not.toContain(SECRET);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
