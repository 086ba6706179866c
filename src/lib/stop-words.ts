// Replies that ask to stop in plain words ("stop texting me", "unsubscribe me please", "no más mensajes"). Under the
// FCC's 2025 rule a free-text request to stop is a valid opt-out, so such a reply opts the person out exactly as the
// keyword STOP does. Pure: no I/O. The rule, in order:
//
// 1. Normalise: lower case, accents gone (más -> mas), curly quotes straightened, apostrophes dropped (don't -> dont),
//    every other character that is not a letter or digit (punctuation, emoji) becomes a space.
// 2. A PHRASE that names the messages or the list ("stop texting", "no more messages", "take me off your list",
//    "darme de baja") opts out wherever it stands, even in a question ("can you stop texting me?"), unless a
//    negation comes just before it in the same clause ("don't stop texting me", "no quiero darme de baja").
// 3. A bare WORD ("stop", "remove me", "para", "baja") opts out only when it is the whole message, give or take
//    politeness and emphasis ("STOP please", "please stop!!", "para ya por favor"), and the message is not a question.
//    So "what time do you stop baking?", "para cuándo es la oferta?" and "is the sale over? no more?" do not.

/** The reply as words: lower case, no accents, no punctuation or emoji, single spaces. */
export function normaliseReply(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`']/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const ME = "(?:me|us)";
const MESSAGES = "(?:messages?|msgs?|texts?|txts?|sms|promos?|promotions?|notifications?|alerts?|spam)";
const SEND = "(?:texting|txting|messaging|msging|sending|send|text|message|contacting|contact|spamming|bothering)";
const LIST = "(?:list|lists|texts?|messages?|mailing list|text list|sms list|contacts?|database|system|subscriptions?|group)";
const ES_SEND = "(?:envien|enviar|envies|envian|mandar|manden|mandes|mandan|escribir|escriban|escribas|escriben|textear|contactar|molestar)(?:me|nos)?";
const ES_MESSAGES = "(?:mensajes?|msjs?|textos?|sms|promociones|publicidad)";

/** A phrase and the words that, just before it in the same clause, turn it round. */
interface Phrase {
  pattern: RegExp;
  negation: RegExp;
}

// "don't stop texting me", "I never said unsubscribe"; the words between may be up to two ("don't ever stop texting"),
// but "why don't you stop texting me" asks to stop. "did I stop getting texts?" asks what happened, not to stop.
const EN_NEGATION = /(?<!\bwhy )\b(?:dont|do not|didnt|did not|never|not)(?: \w+){0,2} $|\b(?:did|have|had) (?:i|you|we|u) $/;
// "no dejen de enviar", "no quiero darme de baja", "no me den de baja".
const ES_NEGATION = /\b(?:no|nunca|jamas)(?: \w+){0,2} $/;
const en = (pattern: RegExp): Phrase => ({ pattern, negation: EN_NEGATION });
const es = (pattern: RegExp): Phrase => ({ pattern, negation: ES_NEGATION });

/** Phrases that name the messages or the list: an opt-out wherever they stand. */
const PHRASES: Phrase[] = [
  en(new RegExp(`\\bstop+ (?:texting|txting|messaging|msging|contacting|spamming|bothering)\\b`)),
  // "stop sending me these", "stop sending messages", "stop sending": not "stop sending the croissants to my office".
  en(new RegExp(`\\bstop+ (?:sending|send|text|message|contact)(?: (?:${ME}|these|those|this|them|it|any|your|the ${MESSAGES}|${MESSAGES})\\b|$)`)),
  en(new RegExp(`\\bstop (?:getting|receiving|all) ${MESSAGES}\\b`)),
  en(/\bunsub(?:scribe)?\b/),
  en(/\bopt ?(?:me )?out\b/),
  en(new RegExp(`\\b(?:remove|delete|take|get|drop|erase) ${ME} (?:off|from|out of)(?: (?:the|your|ur|this|that|my|all your|all of your))? ${LIST}\\b`)),
  en(new RegExp(`\\bno more ${MESSAGES}\\b`)),
  en(new RegExp(`\\b(?:dont|do not|never|quit|cease) ${SEND} ${ME}\\b`)),
  en(new RegExp(`\\b(?:dont|do not) (?:want|need|wish to (?:get|receive)) (?:any ?more |these |your |any )?${MESSAGES}\\b`)),
  en(new RegExp(`\\bno longer (?:want|wish) (?:to (?:get|receive) )?(?:these |your |any )?${MESSAGES}\\b`)),
  en(new RegExp(`\\b(?:leave|lose) ${ME} alone\\b`)),
  es(/\b(?:dar|darme|darnos|den|denme|de) de baja\b/),
  es(/\b(?:cancelar|cancela|cancelen|anular) (?:mi |la )?suscripcion\b/),
  es(/\b(?:desuscribir|desuscribirme|desuscribanme|desuscribeme)\b/),
  es(new RegExp(`\\bno (?:quiero )?mas ${ES_MESSAGES}\\b`)),
  es(new RegExp(`\\bya no (?:me )?${ES_SEND}\\b`)),
  es(new RegExp(`\\bno me ${ES_SEND} mas\\b`)),
  es(new RegExp(`\\b(?:dejen|deja|deje|dejar) de ${ES_SEND}\\b`)),
  es(new RegExp(`\\bpar(?:a|en|e) de ${ES_SEND}\\b`)),
  es(/\b(?:sacame|sacanme|quitame|quitenme|borrame|borrenme|eliminame|eliminenme|eliminarme) (?:de|del)\b/),
  es(new RegExp(`\\bno quiero (?:recibir )?(?:mas )?${ES_MESSAGES}\\b`)),
];

/** Whole-message stop words (after the fillers are taken away). */
const WORDS = new Set(["stop", "stopall", "stopp", "unsubscribe", "cancel", "end", "quit", "optout", "remove", "take off", "no more", "para", "parar", "paren", "basta", "alto", "baja", "cancelar", "fin", "salir", "no mas"]);
/** Words that only add politeness or emphasis around a stop word. */
const FILLERS = new Set(["please", "pls", "plz", "now", "thanks", "thank", "you", "thx", "ty", "ok", "okay", "asap", "immediately", "already", "just", "por", "favor", "porfa", "porfavor", "gracias", "ya", "ahora", "it", "all", "me"]);

/** Whether the message, taken whole, is a stop word with fillers around it ("STOP please", "stop stop stop"). */
function isBareStopWord(words: string[]): boolean {
  const core = words.filter((w) => !FILLERS.has(w));
  if (core.length === 0) return false;
  return WORDS.has(core.join(" ")) || core.every((w) => WORDS.has(w));
}

/** Whether a phrase stands in one clause of the reply with no negation before it. */
function hasPhrase(clause: string): boolean {
  return PHRASES.some(({ pattern, negation }) => {
    const match = pattern.exec(clause);
    return match !== null && !negation.test(clause.slice(0, match.index));
  });
}

/** Whether a reply asks, in plain words, to stop the messages (see the rule at the top of this file). */
export function asksToStop(body: unknown): boolean {
  if (typeof body !== "string") return false;
  // Clauses: a negation counts only within its own ("No. Stop texting me" is an opt-out; "don't stop texting" is not).
  const clauses = body.split(/[.,;:!?¡¿\n]+/).map(normaliseReply).filter(Boolean);
  if (clauses.some(hasPhrase)) return true;
  const question = /[?¿]/.test(body);
  const text = normaliseReply(body);
  return !question && text !== "" && isBareStopWord(text.split(" "));
}

/** The consent event's source of an opt-out by plain words: 'sms-reply-words' or 'whatsapp-reply-words' (a keyword
 * STOP is 'sms-stop' / 'whatsapp-stop'). */
export const replyWordsSource = (channel: "sms" | "whatsapp") => `${channel}-reply-words`;

/** What the inbox shows for an opt-out the person texted, in plain words or by a keyword. */
export const OPTED_OUT_BY_REPLY = "Opted out by their reply";

/** Whether an opt-out's consent-event source is the person's own reply (plain words or a STOP keyword). */
export function optedOutByReply(source: string): boolean {
  return /^(?:sms|whatsapp)-(?:stop|reply-words)$/.test(source);
}
