"use client";

import { use } from "react";
import { Editor } from "@/components/editor/Editor";

/** The flow editor: canvas, palette, config panel. */
export default function FlowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = use(params);
  return <Editor flowId={id} />;
}
