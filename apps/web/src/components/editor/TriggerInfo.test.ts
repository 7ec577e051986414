import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TriggerInfo } from "./TriggerInfo";

const render = (config: Record<string, unknown>) =>
  renderToStaticMarkup(
    createElement(TriggerInfo, { node: { id: "mail", type: "trigger.imap", config } as never }),
  )
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ");

describe("the IMAP trigger's panel", () => {
  it("says which mailbox is watched, what happens to handled mail and how often it is checked", () => {
    expect(render({ credentialId: "c", pollSeconds: 120 })).toContain(
      "Each unread message in INBOX starts a run, then is marked as read once the run is queued. Checked every 120 s",
    );
    expect(render({ credentialId: "c", mailbox: "Orders", after: "move", moveTo: "Done" })).toContain(
      "Each unread message in Orders starts a run, then is moved to Done once the run is queued. Checked every 60 s",
    );
  });
});
