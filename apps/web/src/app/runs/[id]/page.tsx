"use client";

import { use } from "react";
import { RunDetail } from "@/components/runs/RunDetail";

export default function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = use(params);
  return <RunDetail id={id} />;
}
