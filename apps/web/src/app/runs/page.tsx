"use client";

import { Suspense } from "react";
import { RunList } from "@/components/runs/RunList";

export default function RunsPage() {
  // The list reads its filters from the URL; useSearchParams needs a Suspense boundary.
  return (
    <Suspense>
      <RunList />
    </Suspense>
  );
}
