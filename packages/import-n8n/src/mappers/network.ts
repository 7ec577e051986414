/** HTTP Request, Respond to Webhook, Send Email. */
import { jsonTemplateToJsonata, literalString } from "../expressions";
import { type MapContext, type Mapper, obj, str } from "./types";

type Pair = { name?: string; value?: unknown };
const pairs = (v: unknown): Pair[] => (obj(v).parameters as Pair[] | undefined) ?? [];

/** A JSON text parameter (`jsonBody`, `responseBody`) as a config value: parsed JSON, or an expression. */
function jsonText(text: unknown, field: string, ctx: MapContext): unknown {
  if (typeof text !== "string") return text;
  if (!text.startsWith("=")) {
    try {
      return JSON.parse(text);
    } catch {
      return literalString(text);
    }
  }
  const body = text.slice(1).trim();
  // A whole `{{ expr }}` is an expression of any type; JSON with {{ }} inside becomes a JSONata object.
  if (body.startsWith("{{") && body.endsWith("}}") && body.indexOf("{{", 2) < 0)
    return ctx.value(text, field);
  const j = jsonTemplateToJsonata(body, field, ctx);
  return j === undefined ? text : `=${j}`;
}

const AUTH: Record<string, { type: "basic" | "header" | "bearer"; credential: string }> = {
  httpBasicAuth: { type: "basic", credential: "httpBasicAuth" },
  httpHeaderAuth: { type: "header", credential: "httpHeaderAuth" },
  httpBearerAuth: { type: "bearer", credential: "httpBearerAuth" },
};

export const httpRequest: Mapper = (ctx) => {
  const p = ctx.params;
  if (ctx.n8n.typeVersion < 3)
    return {
      unsupported: "HTTP Request before version 3 is not translated; open and save it in a current n8n first",
    };
  const config: Record<string, unknown> = {
    method: str(p.method) ?? "GET",
    url: ctx.value(p.url, "url"),
  };
  const kv = (list: Pair[], field: string) =>
    Object.fromEntries(
      list.filter((x) => x.name).map((x, i) => [x.name!, ctx.value(x.value ?? "", `${field}.${i}.value`)]),
    );
  if (p.sendQuery) {
    if (p.specifyQuery === "json")
      ctx.loss("jsonQuery", "query given as JSON is not translated; set query fields");
    else config.query = kv(pairs(p.queryParameters), "queryParameters");
  }
  if (p.sendHeaders) {
    if (p.specifyHeaders === "json")
      ctx.loss("jsonHeaders", "headers given as JSON are not translated; set header fields");
    else config.headers = kv(pairs(p.headerParameters), "headerParameters");
  }
  if (p.sendBody) {
    const type = str(p.contentType) ?? "json";
    if (type === "json") {
      const value =
        p.specifyBody === "json"
          ? jsonText(p.jsonBody, "jsonBody", ctx)
          : kv(pairs(p.bodyParameters), "bodyParameters");
      config.body = { type: "json", value };
    } else if (type === "form-urlencoded")
      config.body = { type: "form", fields: kv(pairs(p.bodyParameters), "bodyParameters") };
    else if (type === "raw")
      config.body = {
        type: "raw",
        content: ctx.value(p.body ?? "", "body"),
        contentType: str(p.rawContentType) ?? "text/plain",
      };
    else return { unsupported: `an HTTP body of type "${type}"` };
  }
  const auth = str(p.authentication) ?? "none";
  if (auth === "genericCredentialType") {
    const kind = AUTH[str(p.genericAuthType) ?? ""];
    if (!kind) return { unsupported: `HTTP authentication "${String(p.genericAuthType)}"` };
    config.auth = { type: kind.type, credentialId: ctx.credential(kind.credential) };
  } else if (auth === "predefinedCredentialType")
    return {
      unsupported: `HTTP authentication through n8n's "${String(p.nodeCredentialType)}" credential type`,
    };
  const options = obj(p.options);
  if (typeof options.timeout === "number")
    config.timeoutMs = Math.max(100, Math.min(300_000, options.timeout));
  const response = obj(obj(options.response).response);
  if (response.neverError) config.failOnStatus = false;
  if (response.responseFormat === "text") config.responseFormat = "text";
  for (const k of Object.keys(options))
    if (!["timeout", "response"].includes(k))
      ctx.loss(`options.${k}`, `HTTP option "${k}" is not translated`);
  // n8n's item is the response body (an array body: one item per element); ours is { status, headers,
  // body }. Unless the full response was asked for, a Transform after it gives n8n's shape.
  if (response.fullResponse) {
    ctx.loss(
      "options.response.fullResponse",
      "the full response is { status, headers, body } (n8n: statusCode, headers, body)",
    );
    return { type: "http.request", config };
  }
  return {
    type: "http.request",
    config,
    after: {
      idSuffix: "_body",
      type: "data.transform",
      name: `${ctx.node} (body)`,
      config: {
        expression: 'items.($type(body) = "object" or $type(body) = "array" ? body : { "data": body })',
      },
    },
  };
};

export const respondToWebhook: Mapper = (ctx) => {
  const p = ctx.params;
  const with_ = str(p.respondWith) ?? "firstIncomingItem";
  const options = obj(p.options);
  const config: Record<string, unknown> = {};
  if (typeof options.responseCode === "number") config.status = options.responseCode;
  const headers = (obj(options.responseHeaders).entries as Pair[] | undefined) ?? [];
  if (headers.length)
    config.headers = Object.fromEntries(
      headers.map((h, i) => [String(h.name), ctx.value(h.value ?? "", `responseHeaders.${i}`)]),
    );
  switch (with_) {
    case "firstIncomingItem":
      break;
    case "allIncomingItems":
      config.body = "=items";
      break;
    case "json":
      config.body = jsonText(p.responseBody, "responseBody", ctx);
      break;
    case "text":
      config.body = ctx.value(p.responseBody ?? "", "responseBody");
      break;
    case "noData":
      config.body = "";
      break;
    case "redirect":
      config.status = typeof options.responseCode === "number" ? options.responseCode : 307;
      config.headers = {
        ...(config.headers as object),
        location: ctx.value(p.redirectURL ?? "", "redirectURL"),
      };
      config.body = "";
      break;
    default:
      return { unsupported: `responding with "${with_}"` };
  }
  return { type: "webhook.respond", config };
};

const addresses = (v: unknown) => {
  if (typeof v !== "string" || v.startsWith("=")) return v;
  const list = v
    .split(/[,;]/)
    .map((a) => a.trim())
    .filter(Boolean);
  return list.length === 1 ? list[0] : list;
};

export const sendEmail: Mapper = (ctx) => {
  const p = ctx.params;
  const options = obj(p.options);
  const format = str(p.emailFormat) ?? (ctx.n8n.typeVersion >= 2 ? "html" : "both");
  const config: Record<string, unknown> = {
    credentialId: ctx.credential("smtp"),
    to: ctx.value(addresses(p.toEmail), "toEmail"),
    subject: ctx.value(p.subject ?? "", "subject"),
  };
  if (p.fromEmail) config.from = ctx.value(p.fromEmail, "fromEmail");
  if (format === "text" || format === "both") config.text = ctx.value(p.text ?? "", "text");
  if (format === "html" || format === "both") config.html = ctx.value(p.html ?? "", "html");
  if (options.ccEmail) config.cc = ctx.value(addresses(options.ccEmail), "options.ccEmail");
  if (options.bccEmail) config.bcc = ctx.value(addresses(options.bccEmail), "options.bccEmail");
  if (options.replyTo) config.replyTo = ctx.value(options.replyTo, "options.replyTo");
  if (options.attachments)
    ctx.loss("options.attachments", "binary attachments are not translated (use attachmentsField)");
  if (options.appendAttribution !== false && ctx.n8n.typeVersion >= 2.1)
    ctx.loss("options.appendAttribution", 'no "sent automatically with n8n" line is appended');
  if (p.operation === "sendAndWait") return { unsupported: "Send and Wait for Response" };
  return { type: "email.send", config };
};
