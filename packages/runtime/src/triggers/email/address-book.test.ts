import { describe, expect, it } from "vitest";
import { createAddressBook, senderAllowed } from "./address-book";

const b = (localPart: string, flowId = `flow-${localPart}`) => ({
  flowId,
  flowVersion: 1,
  nodeId: "t",
  localPart,
});

describe("address book", () => {
  it("resolves a +tag to the base address, keeping the tag as sent, unless a flow owns the tagged address", () => {
    const book = createAddressBook("Mail.Test");
    book.bind(b("orders"));
    book.bind(b("orders+vip"));
    expect(book.resolve("Orders+Urgent@mail.TEST", "a@x.example")).toMatchObject({
      ok: true,
      binding: { flowId: "flow-orders" },
      tag: "Urgent",
    });
    expect(book.resolve("orders+vip@mail.test", "a@x.example")).toMatchObject({
      ok: true,
      binding: { flowId: "flow-orders+vip" },
    });
    expect(book.resolve("orders+@mail.test", "a@x.example")).toEqual({
      ok: true,
      binding: expect.objectContaining({ flowId: "flow-orders" }),
    });
    expect(book.resolve("sales+x@mail.test", "a@x.example")).toEqual({
      ok: false,
      refusal: { kind: "unknown_mailbox" },
    });
  });

  it("refuses other domains, including look-alike suffixes", () => {
    const book = createAddressBook("mail.test");
    book.bind(b("orders"));
    expect(book.resolve("orders@mail.test.evil.example", "")).toEqual({
      ok: false,
      refusal: { kind: "other_domain", domain: "mail.test.evil.example" },
    });
    expect(book.resolve("orders@sub.mail.test", "")).toMatchObject({
      ok: false,
      refusal: { kind: "other_domain" },
    });
  });

  it("rejects an invalid binding and frees an address when its flow re-binds elsewhere", () => {
    const book = createAddressBook("mail.test");
    expect(() => book.bind(b("has space"))).toThrow(/use letters, digits and \. _ \+ -/);
    book.bind(b("orders", "f1"));
    book.bind(b("sales", "f1"));
    book.bind(b("orders", "f2"));
    expect(book.resolve("orders@mail.test", "")).toMatchObject({ ok: true, binding: { flowId: "f2" } });
    expect(book.size()).toBe(2);
  });

  it("matches allow-list entries by whole address or whole domain, case-insensitively", () => {
    const list = ["boss@partner.example", "@Example.com"];
    expect(senderAllowed(list, "BOSS@partner.example")).toBe(true);
    expect(senderAllowed(list, "ada@example.COM")).toBe(true);
    expect(senderAllowed(list, "ada@sub.example.com")).toBe(false);
    expect(senderAllowed(list, "other@partner.example")).toBe(false);
    expect(senderAllowed(list, "")).toBe(false);
    expect(senderAllowed(undefined, "")).toBe(true);
  });

  it("refuses a declared size over the binding's limit", () => {
    const book = createAddressBook("mail.test");
    book.bind({ ...b("small"), maxMessageBytes: 1000 });
    expect(book.resolve("small@mail.test", "", 1001)).toEqual({
      ok: false,
      refusal: { kind: "too_big", limit: 1000 },
    });
    expect(book.resolve("small@mail.test", "", 1000).ok).toBe(true);
  });
});
