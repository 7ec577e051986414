"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { buttonClass, ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { JobProgress } from "./job-progress";
import { inputClass, labelClass, panelClass } from "./ui";
import { useMemoryJob } from "./use-job";

const ACCEPT = ".md,.markdown,.json,.txt,.csv,.vcf,.vcard";

/** Uploads one file to /api/memory/import and follows the import job to 100 %. */
export function ImportPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const [namespace, setNamespace] = useState("global");
  const [thread, setThread] = useState("");
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string>();
  const [jobId, setJobId] = useState<string>();
  const job = useMemoryJob(jobId);
  const state = job.data?.state;

  // When the job ends, everything memory shows may have changed.
  useEffect(() => {
    if (state && state !== "running") void queryClient.invalidateQueries({ queryKey: trpc.memory.pathKey() });
  }, [state, queryClient, trpc]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) return setUploadError("choose a file to import");
    setUploadError(undefined);
    setJobId(undefined);
    setUploading(true);
    try {
      const form = new FormData();
      form.set("file", file);
      form.set("namespace", namespace);
      if (thread.trim()) form.set("thread", thread.trim());
      const res = await fetch("/api/memory/import", { method: "POST", body: form });
      const body = (await res.json().catch(() => null)) as {
        jobId?: string;
        error?: { message: string };
      } | null;
      if (!res.ok || !body?.jobId)
        setUploadError(body?.error?.message ?? `upload failed (HTTP ${res.status})`);
      else setJobId(body.jobId);
    } catch (err) {
      setUploadError(`upload failed: ${(err as Error).message}`);
    } finally {
      setUploading(false);
    }
  };

  const report = job.data?.report && "files" in job.data.report ? job.data.report : undefined;
  const summary = report
    ? `Imported: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ${report.removed} removed` +
      (report.pendingEmbeddings ? `, ${report.pendingEmbeddings} without vectors (re-index later)` : "") +
      "."
    : undefined;

  return (
    <section className={panelClass} aria-labelledby="memory-import-heading">
      <h2 id="memory-import-heading" className="text-base font-semibold">
        Import
      </h2>
      <p className="text-sm text-slate-500 dark:text-slate-400">
        One file up to 50 MB: Markdown notes (.md), transcripts (.json array of {"{speaker, text}"} or .txt
        with “Speaker: text” lines), contacts (.csv with a header row, .vcf). For a whole folder use{" "}
        <code className="font-mono">switchyard memory import &lt;path&gt;</code>. Importing the same file
        again updates it in place.
      </p>
      <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
        <div className="space-y-1">
          <label htmlFor="memory-import-file" className={labelClass}>
            File
          </label>
          <input
            id="memory-import-file"
            ref={fileRef}
            type="file"
            accept={ACCEPT}
            className="block w-full text-sm"
          />
        </div>
        <div className="space-y-1">
          <label htmlFor="memory-import-namespace" className={labelClass}>
            Namespace
          </label>
          <input
            id="memory-import-namespace"
            className={inputClass}
            value={namespace}
            onChange={(e) => setNamespace(e.target.value)}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor="memory-import-thread" className={labelClass}>
            Thread (transcripts)
          </label>
          <input
            id="memory-import-thread"
            className={inputClass}
            placeholder="file name"
            value={thread}
            onChange={(e) => setThread(e.target.value)}
          />
        </div>
        <button type="submit" className={buttonClass} disabled={uploading || state === "running"}>
          {uploading ? "Uploading…" : "Import"}
        </button>
      </form>
      {uploadError ? <ErrorBox message={uploadError} /> : null}
      {job.error ? <ErrorBox message={job.error.message} /> : null}
      {job.data ? <JobProgress job={job.data} summary={summary} /> : null}
      {report && report.skipped.length > 0 ? (
        <ul className="text-sm text-amber-700 dark:text-amber-300">
          {report.skipped.map((s) => (
            <li key={s.path}>
              skipped {s.path}: {s.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
