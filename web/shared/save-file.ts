/**
 * Saves text the server answered as a file the browser downloads. The owner's exports are fetched (not followed as a
 * plain link) because the session is a bearer token the browser would not send with a navigation.
 */
export function saveTextFile(text: string, fileName: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
