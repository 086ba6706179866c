// The subscribe page offers WhatsApp only for numbers WhatsApp promotions reach (src/schemas/whatsapp-reach.ts), as
// the number is typed: for any other, the WhatsApp card is disabled, SMS is chosen and the server-rendered note
// (#sub-pref-note) says why. A choice the page made is given back when the number changes to one WhatsApp reaches.
import { typedWhatsAppReach } from "../../../src/schemas/whatsapp-reach.ts";

/** Follows the phone field; `onSwitch` runs when the page itself changed the channel (the consent words follow it). */
export function watchWhatsAppReach(form: HTMLFormElement, phone: HTMLInputElement, onSwitch: () => void): void {
  const reach = { callingCode: form.dataset.cc ?? "", reachableAreaCodes: (form.dataset.waAreas ?? "").split(" ") };
  const radio = (kind: string) => form.querySelector<HTMLInputElement>(`input[name=contactPreference][value=${kind}]`)!;
  const whatsapp = radio("WhatsApp");
  const sms = radio("SMS");
  const note = form.querySelector<HTMLElement>("#sub-pref-note");
  // What was chosen before the page chose SMS (undefined: the page has not switched).
  let before: HTMLInputElement | null | undefined;

  function apply(): void {
    const smsOnly = typedWhatsAppReach(phone.value, reach) === false;
    whatsapp.disabled = smsOnly;
    if (note) note.hidden = !smsOnly;
    if (smsOnly && !sms.checked) {
      before = whatsapp.checked ? whatsapp : null;
      sms.checked = true;
      onSwitch();
    } else if (!smsOnly && before !== undefined) {
      if (before) before.checked = true;
      else sms.checked = false;
      before = undefined;
      onSwitch();
    }
  }
  // The person picking SMS themselves keeps it.
  sms.addEventListener("change", () => (before = undefined));
  phone.addEventListener("input", apply);
  apply();
}
