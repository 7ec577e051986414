"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useEffect, useState } from "react";
import { Field, fieldErrors } from "@/app/signin/form-field";
import { buttonClass, ErrorBox, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { dangerButtonClass, Notice, selectClass } from "./ui";

const slotHelp: Record<string, string> = {
  burst: "fast, cheap: retrieval and classification",
  agentic: "tool use and multi-step work",
  reasoning: "harder analysis",
  coding: "code and structured output",
  chat: "writing in a person's voice",
  default: "used when a hint has no model of its own",
};

/** Settings › Models: one OpenAI-compatible provider, its key (a credential) and a model per hint. */
export function ModelsForm() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const current = useQuery(trpc.settings.llm.get.queryOptions());
  const creds = useQuery(trpc.credential.list.queryOptions());
  const [baseUrl, setBaseUrl] = useState("");
  const [credentialId, setCredentialId] = useState("");
  const [models, setModels] = useState<Record<string, string>>({});
  const [testModel, setTestModel] = useState("");
  // Filled once from the server; later refetches never overwrite what is being typed.
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (!current.data || filled) return;
    setFilled(true);
    const p = current.data.provider;
    if (!p) return;
    setBaseUrl(p.baseUrl);
    setCredentialId(p.credentialId ?? "");
    setModels(p.models);
  }, [current.data, filled]);

  const refresh = () => qc.invalidateQueries({ queryKey: trpc.settings.llm.pathKey() });
  const save = useMutation(trpc.settings.llm.set.mutationOptions({ onSuccess: refresh }));
  const clear = useMutation(
    trpc.settings.llm.clear.mutationOptions({
      onSuccess: () => {
        setBaseUrl("");
        setCredentialId("");
        setModels({});
        void refresh();
      },
    }),
  );
  const test = useMutation(trpc.settings.llm.test.mutationOptions());
  const errors = fieldErrors(save.error);
  const slots = current.data?.slots ?? [];
  const keys = creds.data?.filter((c) => c.type === "llmProvider") ?? [];
  const modelToTest = testModel || models.default || Object.values(models).find((m) => m.trim()) || "";
  const input = () => ({
    baseUrl: baseUrl.trim(),
    ...(credentialId ? { credentialId } : {}),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ ...input(), models });
  };

  return (
    <form onSubmit={submit} aria-label="LLM provider" className="space-y-5" noValidate>
      {current.error ? <ErrorBox message={current.error.message} /> : null}
      {current.data && !current.data.provider ? (
        <Notice>
          No provider is configured: retrieval agents (flow_memory_agent, context_scout) answer from memory
          without a model; every other agent fails with a clear error until you save one here.
        </Notice>
      ) : null}
      <Field
        id="llm-base-url"
        label="Base URL"
        placeholder="http://127.0.0.1:11434/v1"
        hint="OpenAI-compatible chat-completions API including the version segment (OpenAI, Ollama, vLLM, LM Studio, llama.cpp)."
        value={baseUrl}
        disabled={!filled}
        error={errors.baseUrl}
        onChange={(e) => setBaseUrl(e.target.value)}
      />
      <div className="space-y-1">
        <label htmlFor="llm-credential" className="block text-sm font-medium">
          API key
        </label>
        <select
          id="llm-credential"
          className={`${selectClass} w-full py-2`}
          value={credentialId}
          disabled={!filled}
          onChange={(e) => setCredentialId(e.target.value)}
        >
          <option value="">None (local server without a key)</option>
          {keys.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          An “LLM provider API key” credential from{" "}
          <Link className="underline" href="/settings/credentials">
            Credentials
          </Link>
          . The key stays on the server.
        </p>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Model per hint</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {slots.map((slot) => (
            <Field
              key={slot}
              id={`llm-model-${slot}`}
              label={`Model for ${slot}`}
              hint={slotHelp[slot]}
              value={models[slot] ?? ""}
              disabled={!filled}
              error={errors[`models.${slot}`]}
              onChange={(e) => setModels({ ...models, [slot]: e.target.value })}
            />
          ))}
        </div>
      </fieldset>

      <div className="flex flex-wrap items-end gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
        <div className="space-y-1">
          <label htmlFor="llm-test-model" className="block text-xs text-slate-500">
            Model to test
          </label>
          <input
            id="llm-test-model"
            className={`${selectClass} w-56`}
            placeholder={modelToTest || "model id"}
            value={testModel}
            onChange={(e) => setTestModel(e.target.value)}
          />
        </div>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={test.isPending || !baseUrl.trim() || !modelToTest}
          onClick={() => test.mutate({ ...input(), model: modelToTest })}
        >
          {test.isPending ? "Testing…" : "Test connection"}
        </button>
        <button type="submit" className={buttonClass} disabled={save.isPending || !baseUrl.trim()}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        {current.data?.provider ? (
          <button
            type="button"
            className={dangerButtonClass}
            disabled={clear.isPending}
            onClick={() => clear.mutate()}
          >
            Remove provider
          </button>
        ) : null}
      </div>
      <div aria-live="polite" className="space-y-2">
        {test.data?.ok ? (
          <div data-testid="llm-test-result">
            <Notice tone="success">
              Connected in {test.data.latencyMs} ms: {test.data.model} replied “{test.data.reply}”.
            </Notice>
          </div>
        ) : null}
        {test.data && !test.data.ok ? (
          <div data-testid="llm-test-result">
            <ErrorBox message={`Connection failed after ${test.data.latencyMs} ms: ${test.data.error}`} />
          </div>
        ) : null}
        {test.error ? <ErrorBox message={test.error.message} /> : null}
        {save.isSuccess ? (
          <div role="status">
            <Notice tone="success">Saved. Agents use the new provider from their next step.</Notice>
          </div>
        ) : null}
        {save.error && Object.keys(errors).length === 0 ? <ErrorBox message={save.error.message} /> : null}
        {clear.error ? <ErrorBox message={clear.error.message} /> : null}
      </div>
    </form>
  );
}
