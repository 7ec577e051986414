"use client";

import { USER_FILE_MAX_CHARS } from "@switchyard/contracts/cap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { buttonClass, ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { dangerButtonClass, inputClass, panelClass } from "./ui";

type Doc =
  | { id: string; label: string; kind: "profile" | "memory" }
  | { id: string; label: string; kind: "flavour"; flavour: string };

/** PROFILE.md, MEMORY.md and the facet ("flavour") documents agents read with memory_flavour. */
export function DocumentsPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const docs = useQuery(trpc.memory.documents.queryOptions());
  const [selected, setSelected] = useState("profile");
  const [text, setText] = useState("");
  const [savedAt, setSavedAt] = useState<string>();
  const list: Doc[] = [
    { id: "profile", label: "PROFILE.md", kind: "profile" },
    { id: "memory", label: "MEMORY.md", kind: "memory" },
    ...(docs.data?.flavours ?? []).map((f) => ({
      id: `flavour:${f.name}`,
      label: `Flavour: ${f.name}`,
      kind: "flavour" as const,
      flavour: f.name,
    })),
  ];
  const doc = list.find((d) => d.id === selected) ?? list[0]!;
  const flavourName = doc.kind === "flavour" ? doc.flavour : undefined;
  const stored =
    doc.kind === "profile"
      ? docs.data?.profile
      : doc.kind === "memory"
        ? docs.data?.memory
        : (docs.data?.flavours.find((f) => f.name === flavourName)?.content ?? "");
  // Load the stored text whenever another document is chosen or the server copy changes.
  useEffect(() => setText(stored ?? ""), [stored]);
  const onSaved = () => {
    setSavedAt(new Date().toLocaleTimeString());
    void queryClient.invalidateQueries({ queryKey: trpc.memory.documents.queryKey() });
  };
  const setDocument = useMutation(trpc.memory.setDocument.mutationOptions({ onSuccess: onSaved }));
  const setFlavour = useMutation(trpc.memory.setFlavour.mutationOptions({ onSuccess: onSaved }));
  const deleteFlavour = useMutation(trpc.memory.deleteFlavour.mutationOptions({ onSuccess: onSaved }));
  const error = setDocument.error ?? setFlavour.error ?? deleteFlavour.error;
  const pending = setDocument.isPending || setFlavour.isPending || deleteFlavour.isPending;
  const save = () => {
    setSavedAt(undefined);
    if (doc.kind === "flavour") setFlavour.mutate({ flavour: doc.flavour, markdown: text });
    else setDocument.mutate({ document: doc.kind, markdown: text });
  };
  const chars = [...text].length;

  return (
    <section className={panelClass} aria-labelledby="memory-docs-heading">
      <h2 id="memory-docs-heading" className="text-base font-semibold">
        Profile, memory file and flavours
      </h2>
      {docs.error ? <ErrorBox message={docs.error.message} /> : null}
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor="memory-doc" className="text-sm font-medium">
          Document
        </label>
        <select
          id="memory-doc"
          className={`${inputClass} w-auto`}
          value={doc.id}
          onChange={(e) => {
            setSavedAt(undefined);
            setSelected(e.target.value);
          }}
        >
          {list.map((d) => (
            <option key={d.id} value={d.id}>
              {d.label}
            </option>
          ))}
        </select>
      </div>
      <label htmlFor="memory-doc-text" className="sr-only">
        {doc.label}
      </label>
      <textarea
        id="memory-doc-text"
        rows={12}
        className={`${inputClass} font-mono`}
        value={text}
        readOnly={!canWrite}
        placeholder={
          doc.kind === "flavour"
            ? "Not written yet. Markdown: how this person likes things done."
            : "Markdown"
        }
        onChange={(e) => setText(e.target.value)}
      />
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {chars} characters
        {doc.kind !== "flavour" && chars > USER_FILE_MAX_CHARS
          ? ` — agents see the first ${USER_FILE_MAX_CHARS} characters and a note that the rest was cut`
          : ""}
      </p>
      {error ? <ErrorBox message={error.message} /> : null}
      {canWrite ? (
        <div className="flex items-center gap-3">
          <button
            type="button"
            className={buttonClass}
            disabled={pending || text === (stored ?? "")}
            onClick={save}
          >
            Save {doc.label}
          </button>
          {doc.kind === "flavour" && stored ? (
            <button
              type="button"
              className={dangerButtonClass}
              disabled={pending}
              onClick={() => {
                if (confirm(`Delete the ${doc.flavour} flavour document?`))
                  deleteFlavour.mutate({ flavour: doc.flavour });
              }}
            >
              Delete flavour
            </button>
          ) : null}
          {savedAt ? (
            <span role="status" className="text-sm text-green-700 dark:text-green-400">
              Saved at {savedAt}
            </span>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
