"use client";

import { JsonViewer } from "./JsonViewer";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

function Field({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{name}</dt>
      <dd className="min-w-0 break-all font-mono">{children}</dd>
    </>
  );
}

function Headers({ headers }: { headers: unknown }) {
  if (!isRec(headers)) return null;
  return (
    <table className="w-full text-xs">
      <tbody>
        {Object.entries(headers).map(([k, v]) => (
          <tr key={k} className="border-t border-slate-100 dark:border-slate-800">
            <td className="py-0.5 pr-3 align-top font-mono text-slate-500">{k}</td>
            <td className="break-all py-0.5 font-mono">{String(v)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The payload the run started with, laid out for its channel (headers arrive already masked by the runtime). */
export function TriggerPayload({ channel, payload }: { channel: string; payload: unknown }) {
  const p = isRec(payload) ? payload : {};
  return (
    <div data-testid="trigger-payload" className="space-y-3 text-xs">
      {channel === "webhook" && typeof p.method === "string" ? (
        <>
          <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1">
            <Field name="Request">
              {p.method} {String(p.path ?? "")}
            </Field>
            {p.receivedAt ? (
              <Field name="Received">{new Date(String(p.receivedAt)).toLocaleString()}</Field>
            ) : null}
          </dl>
          <Headers headers={p.headers} />
          <JsonViewer label="Body" value={p.body ?? null} />
        </>
      ) : null}
      {channel === "email" && typeof p.from === "string" ? (
        <>
          <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1">
            <Field name="From">{p.from}</Field>
            <Field name="To">{Array.isArray(p.to) ? p.to.join(", ") : ""}</Field>
            {Array.isArray(p.cc) && p.cc.length ? <Field name="Cc">{p.cc.join(", ")}</Field> : null}
            <Field name="Subject">{String(p.subject ?? "")}</Field>
            {p.messageId ? <Field name="Message-ID">{String(p.messageId)}</Field> : null}
            {p.date ? <Field name="Date">{String(p.date)}</Field> : null}
          </dl>
          {typeof p.text === "string" ? (
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 dark:bg-slate-800">
              {p.text}
            </pre>
          ) : null}
          {Array.isArray(p.attachments) && p.attachments.length ? (
            <ul className="list-disc pl-5">
              {p.attachments.map((a, i) => {
                const att = isRec(a) ? a : {};
                return (
                  <li key={String(att.filename ?? i)}>
                    {String(att.filename ?? "(unnamed)")} · {String(att.contentType ?? "")} ·{" "}
                    {Number(att.size ?? 0).toLocaleString()} bytes
                  </li>
                );
              })}
            </ul>
          ) : null}
        </>
      ) : null}
      {channel === "cron" && typeof p.firedAt === "string" ? (
        <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1">
          <Field name="Fired at">{new Date(p.firedAt).toLocaleString()}</Field>
          {p.scheduledAt ? (
            <Field name="Scheduled">{new Date(String(p.scheduledAt)).toLocaleString()}</Field>
          ) : null}
          <Field name="Schedule">
            {String(p.expression ?? "")} {p.timezone ? `(${String(p.timezone)})` : ""}
          </Field>
        </dl>
      ) : null}
      <JsonViewer label="Raw payload" value={payload} testId="payload-json" />
    </div>
  );
}
