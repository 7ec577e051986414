import { memo } from "react";
import { iconPath, unknownIconPath } from "./node-icons";

/** A node type's icon by the catalogue's `icon` name; a name without a drawing gets a neutral box. */
export const NodeIcon = memo(function NodeIcon({
  name,
  className = "h-4 w-4",
}: {
  name: string;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d={iconPath(name) ?? unknownIconPath} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
});
