// A file the user named could not be read or written: said in words, not as a raw errno code.
import { actingAsOwner } from "./data-dir-owner.ts";

const WORDS: Record<string, string> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a folder",
  EEXIST: "a file is in the way of a folder it needs",
  ENOTDIR: "a part of the path is not a folder",
  ENOSPC: "the disk is full",
  EROFS: "the file system is read-only",
};

/** "no such file or folder" for an ENOENT, and so on; the error's own message otherwise. */
export function fileProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words = (code && WORDS[code]) ?? (e instanceof Error ? e.message : String(e));
  // Under sudo, nearcast runs as the data dir's owner (cli/data-dir-owner.ts): a file of root's is not theirs.
  const owner = actingAsOwner();
  return owner && (code === "EACCES" || code === "EPERM") ? `${words} to ${owner}, the data dir's owner, as whom nearcast runs` : words;
}
