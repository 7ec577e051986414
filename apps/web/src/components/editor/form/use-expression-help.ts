"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/trpc/client";
import { useForm } from "./form-context";

/** How long typing pauses before the preview is asked for: one request per pause, not per key. */
const PREVIEW_PAUSE_MS = 300;
/** The server's limit (flow.previewExpression): longer values are not sent in a query string. */
export const PREVIEW_MAX_SOURCE = 4000;

/**
 * Field paths of the node's upstream data and a preview of `value` evaluated on the server by the engine
 * (never in the browser). Both read the latest saved version of the flow.
 */
export function useExpressionHelp(value: string, field: string | undefined, enabled: boolean) {
  const trpc = useTRPC();
  const help = useForm().help;
  const on = enabled && !!help;
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), PREVIEW_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const target = { id: help?.flowId ?? "", nodeId: help?.nodeId ?? "" };
  const paths = useQuery(trpc.flow.expressionHelp.queryOptions(target, { enabled: on, staleTime: 0 }));
  const preview = useQuery(
    trpc.flow.previewExpression.queryOptions(
      { ...target, value: settled, ...(field ? { field } : {}) },
      {
        enabled: on && settled.length > 0 && settled.length <= PREVIEW_MAX_SOURCE,
        placeholderData: keepPreviousData,
        retry: false,
      },
    ),
  );
  return {
    paths: paths.data?.paths ?? [],
    preview: on ? preview : null,
    tooLong: on && value.length > PREVIEW_MAX_SOURCE,
  };
}
