// Issue 23 item 7 on the subscribe page: the server's form (src/http/pages/subscribe-page.tsx) with its script's
// channel rule (web/features/subscribe/whatsapp-choice.ts): as a number is typed, WhatsApp is offered only when its
// promotions reach it; for a US number SMS is chosen and the sentence says why; a choice the page made is given back.
import { afterEach, describe, expect, test } from "bun:test";
import { EMPTY_FORM, subscribeFormPage } from "../../../src/http/pages/subscribe-page.tsx";
import type { PublicBusiness } from "../../../src/schemas/businesses.ts";
import { consentText } from "../../../src/schemas/consent.ts";
import { typedReachOf } from "../../../src/schemas/whatsapp-marketing.ts";
import { WHATSAPP_SMS_INSTEAD } from "../../../src/schemas/whatsapp-reach.ts";
import { watchWhatsAppReach } from "../../../web/features/subscribe/whatsapp-choice.ts";

const BUSINESS = { id: 7, name: "Sunrise Bakery", address: "1 Main St", sampleProductText: "Bagels", messagesPerWeek: 3 } as PublicBusiness;

/** The server's form in the document; the rule watching it. */
function mount(defaultCountry = "US") {
  const html = subscribeFormPage({ brand: "Nearcast", css: "", script: null }, BUSINESS, "qr", "token", EMPTY_FORM, typedReachOf(defaultCountry));
  document.body.innerHTML = html.match(/<section class="sub-screen">[\s\S]*<\/section>/)![0];
  const form = document.querySelector<HTMLFormElement>("form.sub-form")!;
  const phone = form.querySelector<HTMLInputElement>("input[name=phone]")!;
  const radio = (kind: string) => form.querySelector<HTMLInputElement>(`input[value=${kind}]`)!;
  const note = form.querySelector<HTMLElement>("#sub-pref-note")!;
  let switches = 0;
  watchWhatsAppReach(form, phone, () => switches++);
  const type = (value: string) => {
    phone.value = value;
    phone.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const pick = (kind: string) => {
    radio(kind).checked = true;
    radio(kind).dispatchEvent(new Event("change", { bubbles: true }));
  };
  const state = () => ({
    whatsapp: radio("WhatsApp").checked,
    sms: radio("SMS").checked,
    whatsappDisabled: radio("WhatsApp").disabled,
    note: note.hidden ? null : note.textContent,
    switches,
  });
  return { type, pick, state };
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the channel choice follows the number typed", () => {
  test("WhatsApp chosen, then a US number: SMS is chosen, WhatsApp disabled, the sentence shown; a UK number gives WhatsApp back", () => {
    const page = mount();
    page.pick("WhatsApp");
    expect(page.state()).toEqual({ whatsapp: true, sms: false, whatsappDisabled: false, note: null, switches: 0 });
    page.type("(212) 5");
    expect(page.state()).toEqual({ whatsapp: false, sms: true, whatsappDisabled: true, note: WHATSAPP_SMS_INSTEAD, switches: 1 });
    page.type("(212) 555-0142");
    expect(page.state().switches).toBe(1);
    page.type("+44 7400 123456");
    expect(page.state()).toEqual({ whatsapp: true, sms: false, whatsappDisabled: false, note: null, switches: 2 });
  });

  test("nothing chosen yet: a US number chooses SMS, and clearing the field undoes it", () => {
    const page = mount();
    page.type("+1 212 555 0142");
    expect(page.state()).toEqual({ whatsapp: false, sms: true, whatsappDisabled: true, note: WHATSAPP_SMS_INSTEAD, switches: 1 });
    page.type("");
    expect(page.state()).toEqual({ whatsapp: false, sms: false, whatsappDisabled: false, note: null, switches: 2 });
  });

  test("SMS picked by the person stays SMS when the number changes", () => {
    const page = mount();
    page.type("212 555 0142");
    page.pick("SMS");
    page.type("+44 7400 123456");
    expect(page.state()).toMatchObject({ whatsapp: false, sms: true, whatsappDisabled: false, note: null });
  });

  test("a Canadian number keeps WhatsApp; +1 before its area code decides nothing yet", () => {
    const page = mount();
    page.pick("WhatsApp");
    page.type("+1 4");
    expect(page.state()).toMatchObject({ whatsapp: true, whatsappDisabled: false, note: null });
    page.type("+1 416 555 0143");
    expect(page.state()).toMatchObject({ whatsapp: true, whatsappDisabled: false, note: null, switches: 0 });
    page.type("1 (416) 555-0143");
    expect(page.state()).toMatchObject({ whatsapp: true, whatsappDisabled: false, switches: 0 });
  });

  test("an install whose default country is the UK: a number without + is British; +1 212 is still US", () => {
    const page = mount("GB");
    page.pick("WhatsApp");
    page.type("07400 123456");
    expect(page.state()).toMatchObject({ whatsapp: true, whatsappDisabled: false });
    page.type("+1 212 555 0142");
    expect(page.state()).toMatchObject({ whatsapp: false, sms: true, whatsappDisabled: true, note: WHATSAPP_SMS_INSTEAD });
  });
});

test("the page's script: the consent words follow the channel the page chose", async () => {
  const html = subscribeFormPage({ brand: "Nearcast", css: "", script: null }, BUSINESS, "qr", "token", EMPTY_FORM, typedReachOf("US"));
  document.body.innerHTML = html.match(/<section class="sub-screen">[\s\S]*<\/section>/)![0];
  await import("../../../web/features/subscribe/enhance.ts");
  const whatsapp = document.querySelector<HTMLInputElement>("input[value=WhatsApp]")!;
  whatsapp.checked = true;
  whatsapp.dispatchEvent(new Event("change", { bubbles: true }));
  const lead = () => document.querySelector(".sub-consent-lead")!.textContent;
  const words = (pref: "SMS" | "WhatsApp") => {
    const text = consentText(BUSINESS, pref);
    return text.slice(0, text.indexOf("See our"));
  };
  expect(lead()).toBe(words("WhatsApp"));
  const phone = document.querySelector<HTMLInputElement>("input[name=phone]")!;
  phone.value = "(212) 555-0142";
  phone.dispatchEvent(new Event("input", { bubbles: true }));
  expect(lead()).toBe(words("SMS"));
});
