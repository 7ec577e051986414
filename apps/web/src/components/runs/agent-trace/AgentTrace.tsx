"use client";

import { useMemo, useState } from "react";
import { JsonViewer } from "../JsonViewer";
import { TurnCard } from "./TurnCard";
import { isTurnTrace, turnTree } from "./trace-view-model";

/** An agent step's turns as a readable timeline; the stored JSON stays one click away. */
export function AgentTrace({ turns }: { turns: unknown[] }) {
  const [raw, setRaw] = useState(false);
  const tree = useMemo(() => turnTree(turns.filter(isTurnTrace)), [turns]);
  const unreadable = turns.length - turns.filter(isTurnTrace).length;
  return (
    <div data-testid="agent-trace" className="space-y-2">
      <div className="flex items-center gap-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Agent trace</h4>
        <button
          type="button"
          aria-pressed={raw}
          onClick={() => setRaw((r) => !r)}
          className="ml-auto text-xs text-brand-600 hover:underline"
        >
          {raw ? "Show timeline" : "Raw JSON"}
        </button>
      </div>
      {raw ? (
        turns.map((turn, i) => (
          <JsonViewer key={i} testId="agent-turn-trace" label={`Agent turn ${i + 1}`} value={turn} />
        ))
      ) : (
        <>
          {tree.map((node) => (
            <TurnCard key={node.turn.turnId} node={node} />
          ))}
          {unreadable ? (
            <p className="text-xs text-slate-500">
              {unreadable} stored turn{unreadable === 1 ? " is" : "s are"} in an older format: see Raw JSON.
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
