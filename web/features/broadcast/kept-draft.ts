// A broadcast being written when the session ended: kept in this tab's sessionStorage while the owner signs in again,
// and put back on the form when they return. The image cannot be kept (a File does not survive a page change): the
// draft remembers there was one, so the screen can ask for it again.

export interface KeptDraft {
  text: string;
  later: boolean;
  laterAt: string;
  hadImage: boolean;
}

const key = (businessId: string) => `nearcast.broadcast-draft.${businessId}`;

export function keepDraft(businessId: string, draft: KeptDraft): void {
  try {
    sessionStorage.setItem(key(businessId), JSON.stringify(draft));
  } catch {
    // storage blocked (private mode): the text is lost, as it was before
  }
}

/** The kept draft of this business, if any (left in place: forgetDraft removes it once it is on screen). */
export function keptDraft(businessId: string): KeptDraft | null {
  try {
    const raw = sessionStorage.getItem(key(businessId));
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<KeptDraft>;
    if (typeof d.text !== "string") return null;
    return { text: d.text, later: d.later === true, laterAt: typeof d.laterAt === "string" ? d.laterAt : "", hadImage: d.hadImage === true };
  } catch {
    return null;
  }
}

export function forgetDraft(businessId: string): void {
  try {
    sessionStorage.removeItem(key(businessId));
  } catch {
    // nothing kept
  }
}
