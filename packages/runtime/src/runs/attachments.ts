import { unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { newId } from "@switchyard/db";
import { makePrivateDir } from "../data-dir-lock";

/** Binary payloads (e-mail attachments, raw bodies) as files beside the database, referenced by id from items. */
export function createAttachmentStore(dataDir: string) {
  const dir = path.join(dataDir, "attachments");
  makePrivateDir(dir);
  const pathOf = (id: string) => (/^[0-9a-f-]{36}$/.test(id) ? path.join(dir, id) : undefined);
  return {
    async store(content: Buffer, _meta: { filename: string; contentType: string }): Promise<string> {
      const id = newId();
      // The id (not the sender's filename) names the file: no path tricks from hostile input.
      writeFileSync(path.join(dir, id), content, { flag: "wx", mode: 0o600 });
      return id;
    },
    pathOf,
    /** Deletes a stored attachment (retention); false when there is no such file. */
    remove(id: string): boolean {
      const file = pathOf(id);
      if (!file) return false;
      try {
        unlinkSync(file);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw e;
      }
    },
  };
}
