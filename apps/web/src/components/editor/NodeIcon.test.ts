import { catalogue } from "@switchyard/nodes";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { categoryLabel, categoryRank, categoryTone, knownCategory } from "./categories";
import { NodeIcon } from "./NodeIcon";
import { iconPath, unknownIconPath } from "./node-icons";

// What the palette is built from: every node and trigger type the nodes package ships.
const entries = catalogue();

const rendered = (name: string) => renderToStaticMarkup(createElement(NodeIcon, { name }));

describe("NodeIcon", () => {
  it("draws every icon a shipped node type declares, none as the neutral box", () => {
    const missing = entries.filter((e) => iconPath(e.icon) === undefined).map((e) => `${e.type}: ${e.icon}`);
    expect(missing).toEqual([]);
    for (const e of entries) {
      const svg = rendered(e.icon);
      expect(svg).toContain(`d="${iconPath(e.icon)}"`);
      expect(svg).not.toContain(unknownIconPath);
    }
  });

  it("draws the neutral box for a name it has no drawing for", () => {
    expect(rendered("no-such-icon")).toContain(`d="${unknownIconPath}"`);
    expect(iconPath("constructor")).toBeUndefined();
  });
});

describe("palette categories", () => {
  it("know every category a shipped node type declares", () => {
    expect([...new Set(entries.map((e) => e.category))].filter((c) => !knownCategory(c))).toEqual([]);
  });

  it("show an extra type's unknown category after the known ones, labelled and in neutral grey", () => {
    expect(categoryLabel("ai")).toBe("AI");
    expect(categoryLabel("crm")).toBe("Crm");
    expect(categoryRank("crm")).toBeGreaterThan(categoryRank("ai"));
    expect(categoryRank("trigger")).toBe(0);
    expect(categoryTone("crm")).toContain("bg-slate-100");
  });
});
