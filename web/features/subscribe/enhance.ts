// The server-rendered subscribe page (src/http/pages/subscribe-page.tsx) works without JavaScript: its form posts and
// the server answers with the page again. When this small script arrives it takes the form over, so the visitor gets
// what the app gives elsewhere: the consent words follow the channel picked, an empty field is pointed out before
// anything is sent, and the answer replaces the form in place. No framework: this page must stay light on a phone.
import { CONSENT_LEGAL, consentText } from "../../../src/schemas/consent.ts";
import type { ContactPreference } from "../../../src/schemas/customers.ts";
import { CONNECTION_ERROR, PHONE_REQUIRED, PREFERENCE_REQUIRED } from "../../../src/schemas/texts.ts";
import { watchWhatsAppReach } from "./whatsapp-choice.ts";

const SUBSCRIBE_FAILED = "Subscription failed. Please try again.";

type FieldName = "phone" | "contactPreference";

function readCookie(name: string): string | undefined {
  const match = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

function enhance(form: HTMLFormElement): void {
  const data = form.dataset;
  const business = { name: data.name ?? "", messagesPerWeek: Number(data.perWeek) };
  const lead = form.querySelector<HTMLElement>(".sub-consent-lead");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const phone = form.elements.namedItem("phone") as HTMLInputElement;
  const choice = () => (form.querySelector<HTMLInputElement>("input[name=contactPreference]:checked")?.value ?? null) as ContactPreference | null;

  const containers: Record<FieldName, HTMLElement> = { phone: phone.closest(".field")!, contactPreference: form.querySelector(".pref-field")! };
  const errorIds: Record<FieldName, string> = { phone: "sub-phone-error", contactPreference: "sub-pref-error" };

  function setFieldError(name: FieldName, message: string | null): void {
    const box = containers[name];
    box.querySelector(`#${errorIds[name]}`)?.remove();
    box.classList.toggle("has-error", !!message);
    const control = name === "phone" ? phone : box.querySelector<HTMLElement>("[role=radiogroup]")!;
    control.setAttribute("aria-invalid", String(!!message));
    const described = name === "phone" ? phone : box;
    const ids = (described.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== errorIds[name]);
    if (message) {
      const note = document.createElement("div");
      note.id = errorIds[name];
      note.className = "field-error";
      note.setAttribute("role", "alert");
      note.textContent = message;
      box.append(note);
      ids.push(errorIds[name]);
    }
    if (ids.length) described.setAttribute("aria-describedby", ids.join(" "));
    else described.removeAttribute("aria-describedby");
  }

  function setAlert(message: string | null): void {
    form.querySelector(".alert")?.remove();
    if (!message) return;
    const alert = document.createElement("div");
    alert.className = "alert alert-error";
    alert.setAttribute("role", "alert");
    alert.textContent = message;
    form.querySelector(".sub-lead")!.after(alert);
  }

  function setBusy(busy: boolean): void {
    button.disabled = busy;
    button.setAttribute("aria-busy", String(busy));
    button.textContent = busy ? "Subscribing..." : "Subscribe";
  }

  function showSuccess(message: string): void {
    const template = document.getElementById("sub-success") as HTMLTemplateElement;
    const card = template.content.firstElementChild!.cloneNode(true) as HTMLElement;
    card.querySelector(".sub-success-message")!.textContent = message;
    const screen = form.closest(".sub-screen")!;
    screen.replaceChildren(card);
    card.querySelector(".sub-success")!.scrollIntoView({ block: "start" });
    card.querySelector<HTMLElement>("h1")!.focus({ preventScroll: true });
  }

  function followChannel(): void {
    if (lead) lead.textContent = consentText(business, choice()).slice(0, -CONSENT_LEGAL.length);
    setFieldError("contactPreference", null);
  }
  form.addEventListener("change", (event) => {
    if ((event.target as HTMLInputElement).name === "contactPreference") followChannel();
  });
  phone.addEventListener("input", () => setFieldError("phone", null));
  watchWhatsAppReach(form, phone, followChannel);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    setAlert(null);
    const values = { phone: phone.value.trim(), contactPreference: choice() };
    const missing: Partial<Record<FieldName, string>> = {};
    if (!values.phone) missing.phone = PHONE_REQUIRED;
    if (!values.contactPreference) missing.contactPreference = PREFERENCE_REQUIRED;
    setFieldError("phone", missing.phone ?? null);
    setFieldError("contactPreference", missing.contactPreference ?? null);
    if (missing.phone) return phone.focus();
    if (missing.contactPreference) return form.querySelector<HTMLInputElement>("input[name=contactPreference]")!.focus();

    setBusy(true);
    let res: Response;
    try {
      const xsrf = readCookie("XSRF-TOKEN");
      res = await fetch("/api/subscription/Subscribe", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", ...(xsrf ? { "X-XSRF-TOKEN": xsrf } : {}) },
        body: JSON.stringify({ businessId: Number(data.businessId), ...values, source: data.source }),
      });
    } catch {
      setBusy(false);
      return setAlert(CONNECTION_ERROR);
    }
    const body = (await res.json().catch(() => ({}))) as { message?: string; error?: string; fields?: Record<string, string> };
    if (res.ok) return showSuccess(body.message ?? "");
    // The business closed while the page was open: the server's page says so.
    if (res.status === 404) return location.reload();
    setBusy(false);
    const fields = res.status === 400 ? (body.fields ?? {}) : {};
    if (fields.phone || fields.contactPreference) {
      setFieldError("phone", fields.phone ?? null);
      setFieldError("contactPreference", fields.contactPreference ?? null);
      if (fields.phone) phone.focus();
    } else setAlert(body.error ?? SUBSCRIBE_FAILED);
  });
}

const form = document.querySelector<HTMLFormElement>("form.sub-form");
if (form) enhance(form);
