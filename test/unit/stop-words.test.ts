import { describe, expect, test } from "bun:test";
import { asksToStop, normaliseReply } from "../../src/lib/stop-words.ts";

// Replies that ask to stop in plain words opt the person out like STOP (issue 24 item 3); others never do.
const MUST_OPT_OUT = [
  "stop texting me",
  "Stop texting me!!",
  "STOP please",
  "please stop",
  "Please STOP 🙏",
  "stop!",
  "Stop. Please.",
  "stop stop stop",
  "stop it",
  "unsubscribe me please",
  "Unsubscribe",
  "remove me",
  "Remove me from your list",
  "take me off your list",
  "Take me off the mailing list, thanks",
  "no more messages",
  "No more texts please",
  "opt out",
  "please opt me out",
  "don't text me",
  "Don’t text me again",
  "do not message me",
  "I don't want these texts",
  "I do not want any more messages",
  "can you please stop texting me?",
  "No, stop sending me these",
  "stop sending me messages",
  "leave me alone",
  "STOPPP TEXTING",
  "I no longer want to receive messages",
  "why don't you stop texting me",
  "Stop sending texts",
  "please stop sending",
  // Spanish
  "para",
  "Para ya por favor",
  "no más mensajes",
  "No mas mensajes!",
  "quiero darme de baja",
  "darme de baja",
  "Dar de baja",
  "cancelar suscripción",
  "Cancelar mi suscripcion por favor",
  "ya no me envíen mensajes",
  "BAJA",
  "basta",
  "dejen de enviarme mensajes",
  "No me manden más",
  "sácame de la lista",
  "no quiero recibir más mensajes",
  "¿pueden dejar de escribirme?",
  "No. Dejen de mandarme mensajes",
];

const MUST_NOT_OPT_OUT = [
  "what time do you stop baking?",
  "don't stop the deals!",
  "can you remove the nuts from my order?",
  "is the sale over? no more?",
  "I'll stop by later",
  "can I stop by at 5?",
  "stop?",
  "Don't stop texting me, I love the deals",
  "please don't unsubscribe me",
  "No, don't remove me from the list",
  "hello",
  "S T O P",
  "",
  "Yes, I want the deal",
  "Thanks!",
  "ok",
  "Do you have gluten free bread?",
  "my bus stop is right by your shop",
  "The end of the sale is when?",
  "Stop the presses, that's a great deal!",
  "remove the onions please",
  "where do I send my order?",
  "no",
  "text me when the bagels are ready",
  "please",
  "why did I stop getting texts?",
  "stop sending the croissants to my office",
  // Spanish
  "¿para cuándo es la oferta?",
  "para mi mamá",
  "¿a qué hora para el camión?",
  "la baja de precios es hoy?",
  "no quiero darme de baja",
  "no dejen de enviar ofertas",
  "mensajes para mi hermana",
  "gracias",
  "¿hay más ofertas?",
];

describe("replies that ask to stop in plain words", () => {
  test("the table has at least 25 phrases each way", () => {
    expect(MUST_OPT_OUT.length).toBeGreaterThanOrEqual(25);
    expect(MUST_NOT_OPT_OUT.length).toBeGreaterThanOrEqual(25);
  });

  test.each(MUST_OPT_OUT)("opts out: %p", (reply) => {
    expect(asksToStop(reply)).toBe(true);
  });

  test.each(MUST_NOT_OPT_OUT)("does not opt out: %p", (reply) => {
    expect(asksToStop(reply)).toBe(false);
  });

  test("anything that is not text never opts out", () => {
    for (const body of [undefined, null, 42, ["stop"], { Body: "stop" }]) expect(asksToStop(body)).toBe(false);
  });

  test("normalising: case, accents, curly apostrophes, punctuation and emoji", () => {
    expect(normaliseReply("  NO MÁS   Mensajes!!! 🙅‍♀️ ")).toBe("no mas mensajes");
    expect(normaliseReply("Don’t TEXT me...")).toBe("dont text me");
  });
});
