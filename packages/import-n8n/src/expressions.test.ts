import { describe, expect, it } from "vitest";
import { jsonTemplateToJsonata, translateString } from "./expressions";
import { ReportBuilder } from "./report";

const ctx = () => ({
  refs: (n: string) => (n === "Order" ? "order" : undefined),
  report: new ReportBuilder(),
  node: "Set",
});

describe("n8n parameter strings to config strings", () => {
  it.each([
    ["={{ $json.total }}", "=item.total"],
    ["={{ $json.total * 2 }}", "=item.total * 2"],
    [
      "=Order {{ $json.id }} for {{ $('Order').item.json.name }}",
      "Order {{ item.id }} for {{ nodes.order.item.name }}",
    ],
    ["=just text", "just text"],
    ["plain", "plain"],
    ["=x", "x"],
    ["==x", "==x"],
    ["=1 + 1 = {{ 1 + 1 }}", "1 + 1 = {{ 1 + 1 }}"],
    ["== {{ 1 + 1 }}", '="= " & $string(1 + 1)'],
    ["not {{ an expression }} in n8n", '="not {{ an expression }} in n8n"'],
  ])("%s becomes %s", (input, expected) => {
    const c = ctx();
    expect(translateString(input, "value", c)).toBe(expected);
    expect(c.report.problems).toEqual([]);
  });

  it("keeps an untranslatable expression and reports it with the field and the reason", () => {
    const c = ctx();
    expect(translateString("={{ $json.list.map(x => x * 2) }}", "fields.0.value", c)).toBe(
      "={{ $json.list.map(x => x * 2) }}",
    );
    expect(c.report.problems).toEqual([
      {
        code: "expression_untranslated",
        node: "Set",
        field: "fields.0.value",
        message:
          "{{ $json.list.map(x => x * 2) }} could not be translated (the method .map() is not translated); rewrite it in JSONata",
      },
    ]);
  });

  it("turns JSON text with expressions into a JSONata object constructor", () => {
    const c = ctx();
    expect(
      jsonTemplateToJsonata('{ "id": {{ $json.id }}, "msg": "Hi {{ $json.name }}!" }', "responseBody", c),
    ).toBe('{ "id": (item.id), "msg": ("Hi " & $string(item.name) & "!") }');
  });
});
