// The broadcast screen's WhatsApp template picker (issue 11 item 1) on happy-dom: shown only when someone is on
// WhatsApp; lists approved templates only; fills the variables; previews the rendered template with the image as
// its media header; sends ContentSid + ContentVariables; refuses an empty variable before sending; shows the skip
// warning with and without a template, and the queued answer's warning as a toast.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/whatsapp-template-field.test.tsx
import { describe, expect, test } from "bun:test";
import { fireEvent, waitFor } from "@testing-library/react";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { confirmSend, COUNT, ESTIMATE, PUBLISH, renderBroadcastScreen, useBroadcastScreen, whatsappTemplate } from "./broadcast-screen.tsx";

const TEMPLATES = "/api/business/WhatsAppTemplates";
const AUDIENCE = "/api/business/WhatsAppAudience";

const api = mockApi();
const { calls, routes: replies } = api;

const template = whatsappTemplate;

const NO_TEMPLATE_WARNING = "2 WhatsApp recipients will be skipped: WhatsApp allows only approved templates more than 24 hours after the customer's last message. Choose a template to reach them.";
const US_WARNING = "1 WhatsApp recipient on US (+1) numbers will be skipped: WhatsApp can't deliver promotions to US numbers, and they are not texted by SMS instead. Ask them to subscribe by SMS.";

useBroadcastScreen(api, {
  counts: { total: 3, sms: 1, whatsapp: 2 },
  replies: () => ({
    [`GET ${TEMPLATES}`]: {
      body: [
        template({}),
        template({ sid: "HX22222222222222222222222222222222", name: "photo_offer", body: "{{1}}: {{2}}", mediaHeader: true, mediaVariable: "3", mediaUrl: "https://x/uploads/{{3}}" }),
        template({ sid: "HX33333333333333333333333333333333", name: "still_pending", status: "pending" }),
      ],
    },
    [`GET ${AUDIENCE}`]: {
      body: { whatsapp: 2, inWindow: 0, needTemplate: 2, usNumbers: 1, marketingStopped: 0, warningWithoutTemplate: NO_TEMPLATE_WARNING, warningWithTemplate: US_WARNING },
    },
  }),
});

async function renderPage() {
  const view = await renderBroadcastScreen();
  const select = () => view.getByLabelText("WhatsApp template") as HTMLSelectElement;
  return { ...view, select };
}

const callsTo = (key: string) => calls.filter((c) => `${c.method} ${c.url.split("?")[0]}` === key);

describe("the WhatsApp template picker", () => {
  test("nobody on WhatsApp: no picker and no template request", async () => {
    replies[`GET ${COUNT}`] = { body: { total: 2, sms: 2, whatsapp: 0 } };
    const view = await renderPage();
    expect(view.queryByTestId("wa-template-field")).toBeNull();
    expect(callsTo(`GET ${TEMPLATES}`)).toHaveLength(0);
  });

  test("lists approved templates only; without one, the skip warning says who and why", async () => {
    const view = await renderPage();
    await waitFor(() => expect(view.getByTestId("wa-warning").textContent).toBe(NO_TEMPLATE_WARNING));
    const options = Array.from(view.select().options).map((o) => o.textContent);
    expect(options).toEqual(["No template (only people who wrote in the last 24 hours)", "weekly_offer · en", "photo_offer (image header) · en"]);
    expect(callsTo(`GET ${AUDIENCE}`)[0]!.url).toBe(`${AUDIENCE}?businessId=7`);
  });

  test("a template: its variables, the rendered preview, the +1 warning; sent as ContentSid + ContentVariables; the answer's warning is a toast", async () => {
    replies[`POST ${PUBLISH}`] = { body: { message: "Broadcast queued: 3 messages to 3 subscribers.", broadcastId: 4, recipients: 3, warning: US_WARNING } };
    const view = await renderPage();
    await waitFor(() => expect(view.select().options.length).toBe(3));
    fireEvent.change(view.select(), { target: { value: "HX11111111111111111111111111111111" } });
    expect(view.getByTestId("wa-warning").textContent).toBe(US_WARNING);
    fireEvent.change(view.getByLabelText("{{1}}"), { target: { value: "Sunrise Bakery" } });
    fireEvent.change(view.getByLabelText("{{2}}"), { target: { value: "Croissants 2 for 1" } });
    expect(view.getByTestId("wa-preview").textContent).toBe("Sunrise Bakery has a new offer: Croissants 2 for 1");
    view.type("Croissants 2 for 1 until noon");
    fireEvent.click(view.sendButton());
    await confirmSend();
    expect((callsTo(`POST ${ESTIMATE}`)[0]!.body as { withTemplate: boolean }).withTemplate).toBe(true);
    await waitFor(() => expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(1));
    const form = callsTo(`POST ${PUBLISH}`)[0]!.body as FormData;
    expect(form.get("ContentSid")).toBe("HX11111111111111111111111111111111");
    expect(JSON.parse(String(form.get("ContentVariables")))).toEqual({ "1": "Sunrise Bakery", "2": "Croissants 2 for 1" });
    expect(form.get("MessageText")).toBe("Croissants 2 for 1 until noon");
    await waitFor(() => expect(toasts.value.map((t) => [t.type, t.message])).toContainEqual(["warning", US_WARNING]));
    expect(toasts.value.map((t) => t.type)).toContain("success");
  });

  test("an empty variable, or an image template without an image: said at the field, nothing sent", async () => {
    const view = await renderPage();
    await waitFor(() => expect(view.select().options.length).toBe(3));
    fireEvent.change(view.select(), { target: { value: "HX22222222222222222222222222222222" } });
    expect(view.getByTestId("wa-preview").textContent).toContain("Image header: choose an image");
    fireEvent.change(view.getByLabelText("{{1}}"), { target: { value: "Sunrise" } });
    view.type("Hello");
    fireEvent.click(view.sendButton());
    await settle();
    expect(view.getByRole("alert").textContent).toBe("Template variable {{2}} cannot be empty.");
    fireEvent.change(view.getByLabelText("{{2}}"), { target: { value: "Rolls" } });
    await settle();
    expect(view.getByRole("alert").textContent).toBe("This template has an image header: choose an image above.");
    expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(0);
  });
});
