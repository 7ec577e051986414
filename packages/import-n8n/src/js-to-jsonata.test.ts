import { describe, expect, it } from "vitest";
import { jsToJsonata } from "./js-to-jsonata";

const refs = (name: string) => ({ "Get order": "get_order", "HTTP Request": "http_request_body" })[name];
const t = (source: string) => jsToJsonata(source, refs);

describe("n8n JavaScript expressions to JSONata", () => {
  it.each([
    ["$json.total", "item.total"],
    [' $json["first name"] ', "item.`first name`"],
    ["$json.lines[0].price", "item.lines[0].price"],
    ["$('Get order').item.json.id", "nodes.get_order.item.id"],
    ["$('Get order').first().json.customer.name", "nodes.get_order.item.customer.name"],
    ["$('Get order').all().length", "$count(nodes.get_order.items)"],
    ['$node["HTTP Request"].json.data', "nodes.http_request_body.item.data"],
    ["$input.item.json.x", "item.x"],
    ["$input.first().json.x", "items[0].x"],
    ["$input.all()", "items"],
    ["$now", "$now()"],
    ["$now.toISO()", "$now()"],
    ["$execution.id", "run.id"],
    ["$json.total > 100 && $json.status === 'paid'", 'item.total > 100 and item.status = "paid"'],
    ["$json.a !== null || $json.b == 2", "item.a != null or item.b = 2"],
    ["'Hello ' + $json.name", '"Hello " & item.name'],
    ["$json.qty * $json.price + 1", "item.qty * item.price + 1"],
    ["$json.vip ? 'gold' : 'standard'", 'item.vip ? "gold" : "standard"'],
    ["$json.name.toUpperCase()", "$uppercase(item.name)"],
    ["($json.a - 1) % 2", "( item.a - 1 ) % 2"],
  ])("translates %s", (source, expected) => {
    expect(t(source)).toEqual({ ok: true, jsonata: expected });
  });

  it.each([
    ["$json.items.map(i => i.x)", "the method .map() is not translated"],
    ["!$json.done", 'the operator "!" is not translated'],
    ["$('Nope').item.json.x", 'no node named "Nope" in this workflow'],
    ["$env.SECRET", '"$env" has no equivalent in Switchyard expressions'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the input is JavaScript source with a template literal
    ["`a${1}`", "template literals are not translated"],
    ["Math.round($json.x)", '"Math" has no equivalent in Switchyard expressions'],
  ])("refuses %s with the reason", (source, reason) => {
    expect(t(source)).toEqual({ ok: false, reason });
  });
});
