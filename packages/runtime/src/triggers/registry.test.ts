import { defineTrigger, nodeTypes, setNode } from "@switchyard/nodes";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTriggerListener } from "./listener";
import { manualListener } from "./manual/listener";
import { createTypeRegistry } from "./registry";

const pingTrigger = defineTrigger({
  type: "test.ping",
  typeVersion: 1,
  title: "Ping",
  description: "Starts the flow on a ping.",
  icon: "play",
  channel: "manual",
  config: z.object({}),
  example: {},
  payload: z.object({}),
});
const pingListener = defineTriggerListener({ trigger: pingTrigger, bind() {}, unbind() {} });

describe("the host's type registry", () => {
  it("adds a listener's trigger definition to the node types and the catalogue", () => {
    const types = createTypeRegistry({ nodeTypes: [setNode], listeners: [pingListener] });
    expect(types.nodes.types()).toEqual(["data.set", "test.ping"]);
    expect(types.listenerOf("test.ping")).toBe(pingListener);
    expect(types.catalogue().map((e) => e.type)).toEqual(["data.set", "test.ping"]);
  });

  it("refuses a trigger type without a listener, naming it", () => {
    expect(() => createTypeRegistry({ nodeTypes, listeners: [manualListener] })).toThrow(
      'trigger type "trigger.webhook" has no listener; declare one with defineTriggerListener and register it in createShippedListeners (or pass it to createHost as a trigger listener)',
    );
  });

  it("refuses two listeners for one type, and two definitions with one type id", () => {
    expect(() => createTypeRegistry({ nodeTypes: [], listeners: [pingListener, pingListener] })).toThrow(
      'trigger type "test.ping" has two listeners',
    );
    const impostor = defineTriggerListener({ trigger: { ...pingTrigger }, bind() {}, unbind() {} });
    expect(() => createTypeRegistry({ nodeTypes: [pingTrigger], listeners: [impostor] })).toThrow(
      'duplicate node type "test.ping"',
    );
  });

  it("refuses an extra type whose id a shipped type already uses", () => {
    expect(() => createTypeRegistry({ nodeTypes: [setNode, { ...setNode }], listeners: [] })).toThrow(
      'duplicate node type "data.set"',
    );
  });
});
