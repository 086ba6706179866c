// A file the user named could not be read or written: said in words, not as a raw errno code.
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
  return (code && WORDS[code]) ?? (e instanceof Error ? e.message : String(e));
}
