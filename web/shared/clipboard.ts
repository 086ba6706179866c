/**
 * Copies `text`: the Clipboard API where the page may use it, else the old way, selecting the text of `input` (an
 * input or textarea showing the same text) and asking the browser to copy. Whether it worked.
 */
export async function copyText(text: string, input: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // blocked (insecure origin, permissions): fall back to selecting the text
  }
  if (!input) return false;
  input.focus();
  input.select();
  try {
    return document.execCommand?.("copy") ?? false;
  } catch {
    return false;
  }
}
