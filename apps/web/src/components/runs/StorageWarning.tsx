import Link from "next/link";

/** The storage budget's warning: shown on the runs and retention pages before runs are deleted for room. */
export function StorageWarning({ message, link = false }: { message: string; link?: boolean }) {
  return (
    <p
      role="status"
      data-testid="storage-warning"
      className="my-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-slate-900 dark:text-amber-300"
    >
      {message}{" "}
      {link ? (
        <Link href="/settings/retention" className="underline">
          Retention settings
        </Link>
      ) : null}
    </p>
  );
}
