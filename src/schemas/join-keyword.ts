import * as v from "valibot";

// The word a person texts to the shop's number to join (issue 24, item 5): a business's `keyword`. Matched without
// regard to case (stored and compared upper-case), and never a word that already means something on the number.

/**
 * The words a carrier, Twilio or Nearcast already acts on: Twilio's default opt-out (STOP ... OPTOUT), opt-in
 * (START, YES, UNSTOP) and help (HELP, INFO) keywords, which its Advanced Opt-Out answers itself, their Spanish
 * counterparts people use here (PARA, BAJA, AYUDA) and the French one Canadian carriers honour (ARRET).
 */
export const RESERVED_KEYWORDS = [
  "STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT",
  "START", "YES", "UNSTOP",
  "HELP", "INFO",
  "PARA", "BAJA", "AYUDA", "ARRET",
] as const;

export const KEYWORD_FORMAT = "Keyword must be 2 to 20 letters or digits, with no spaces";
export const keywordReserved = (word: string) => `${word} is a reserved word; please choose another keyword`;
export const KEYWORD_TAKEN = "This keyword is already used by another business; please choose another";
export const KEYWORD_HINT = "Optional. People can text this word to your number to subscribe, e.g. BAGEL.";

const reserved = new Set<string>(RESERVED_KEYWORDS);

/** The stored form of a typed keyword: trimmed, upper-case. */
export const normalKeyword = (typed: string): string => typed.trim().toUpperCase();

/** Whether a whole inbound message could be a join keyword (any case, surrounding spaces ignored). */
export const looksLikeKeyword = (body: string): boolean => /^[A-Z0-9]{2,20}$/.test(normalKeyword(body));

/** The business field: left out, null or "" is none; otherwise 2-20 letters or digits, not reserved, upper-cased. */
export const keywordField = v.pipe(
  v.optional(v.nullable(v.string(KEYWORD_FORMAT)), null),
  v.transform((s) => (s ? normalKeyword(s) : null)),
  v.check((s) => s === null || /^[A-Z0-9]{2,20}$/.test(s), KEYWORD_FORMAT),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value !== null && reserved.has(dataset.value)) addIssue({ message: keywordReserved(dataset.value) });
  }),
  v.transform((s) => s || null),
);
