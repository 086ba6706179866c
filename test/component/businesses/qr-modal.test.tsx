// The QR modal and the print page on happy-dom.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/businesses/qr-modal.test.tsx
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { useState } from "react";
import type { PublicBusiness } from "../../../src/schemas/businesses.ts";
import { DEFAULT_QR_MESSAGE } from "../../../src/schemas/poster-text.ts";
import { posterDisclosure, UNSUBSCRIBE_NOTE } from "../../../src/schemas/poster-text.ts";
import { QR_INACTIVE_NO_LINK, QrModal } from "../../../web/features/businesses/components/QrModal.tsx";
import { PRINT_DELAY_MS, PRINT_FALLBACK_MS, PrintPosterPage } from "../../../web/features/businesses/PrintPoster.tsx";
import { token } from "../../../web/shared/state/session.ts";
import { site } from "../../../web/shared/state/site.ts";
import { mockApi, siteInfo } from "../../helpers/mock-api.ts";
import { SUNRISE_BAKERY } from "./business-fixtures.ts";

const FAILED = "Failed to load QR code image. Please try again.";

const BUSINESS = SUNRISE_BAKERY;

const realOpen = window.open;
const realPrint = window.print;
const api = mockApi();
let opened: string[] = [];
let printed = 0;
let clipboard: string[] = [];

beforeEach(() => {
  opened = [];
  printed = 0;
  clipboard = [];
  token.value = null;
  window.open = ((url?: string | URL) => {
    opened.push(String(url));
    return {} as Window;
  }) as typeof window.open;
  window.print = () => void (printed += 1);
  Object.defineProperty(navigator, "clipboard", {
    configurable: true,
    value: { writeText: async (text: string) => void clipboard.push(text) },
  });
});

afterEach(() => {
  cleanup();
  jest.useRealTimers();
  window.open = realOpen;
  window.print = realPrint;
  token.value = null;
  document.body.className = "";
});

function renderModal(business: PublicBusiness = BUSINESS, onClose = () => {}) {
  return render(<QrModal business={business} onClose={onClose} />);
}

describe("QrModal", () => {
  test("logged out: logo initials, QR image, name and message; no link, copy or print", () => {
    const view = renderModal();
    const dialog = view.getByRole("dialog");
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(view.getByRole("dialog", { name: "Sunrise Bakery" })).toBe(dialog);
    expect(view.getByText("SB")).toBeTruthy();
    const img = view.getByAltText("QR code to subscribe to Sunrise Bakery") as HTMLImageElement;
    expect(img.getAttribute("src")).toBe("/api/business/GetQRCodeImage?id=7");
    expect(view.getByText("Scan for warm croissant deals!")).toBeTruthy();
    expect(view.queryByText("Print QR Code")).toBeNull();
    expect(view.queryByRole("button", { name: "Copy" })).toBeNull();
    expect(view.queryByLabelText("Subscription link")).toBeNull();
    expect(view.container.textContent).not.toContain("/subscribe?id=7");
  });

  test("the default QR message when the business has none; the logo image when it has one", () => {
    const view = renderModal({ ...BUSINESS, qrMessage: "", logoImagePath: "/uploads/logo.png" });
    expect(view.getByText(DEFAULT_QR_MESSAGE)).toBeTruthy();
    const logo = view.getByAltText("Sunrise Bakery logo");
    expect(logo.getAttribute("src")).toBe("/uploads/logo.png");
    expect(view.queryByText("SB")).toBeNull();
    fireEvent.error(logo);
    expect(view.getByText("SB")).toBeTruthy();
  });

  test("logged in: the subscription link, copy (with a 'Copied' state) and print", async () => {
    token.value = "tok";
    const view = renderModal();
    const link = view.getByLabelText("Subscription link") as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/subscribe?id=7`);
    expect(link.readOnly).toBe(true);
    fireEvent.click(view.getByRole("button", { name: "Copy" }));
    await waitFor(() => {
      if (!view.queryByRole("button", { name: "Copied" })) throw new Error("not copied yet");
    });
    expect(clipboard).toEqual([`${window.location.origin}/subscribe?id=7`]);
    fireEvent.click(view.getByRole("button", { name: /Print QR Code/ }));
    expect(opened).toEqual(["/print/7"]);
  });

  test("'Copied' goes back to 'Copy' after a moment", async () => {
    token.value = "tok";
    const view = renderModal();
    jest.useFakeTimers();
    await act(async () => {
      fireEvent.click(view.getByRole("button", { name: "Copy" }));
    });
    expect(view.getByRole("button", { name: "Copied" })).toBeTruthy();
    act(() => jest.advanceTimersByTime(2000));
    expect(view.getByRole("button", { name: "Copy" })).toBeTruthy();
  });

  test("'Open subscribe page' under the QR for everyone, logged in or not; none for an inactive business", () => {
    const link = () => view.getByRole("link", { name: "Open subscribe page" }).getAttribute("href");
    let view = renderModal();
    expect(link()).toBe("/subscribe?id=7&src=list");
    cleanup();
    token.value = "tok";
    view = renderModal();
    expect(link()).toBe("/subscribe?id=7&src=list");
    expect(view.getByLabelText("Subscription link")).toBeTruthy();
    expect(view.getByRole("button", { name: "Copy" })).toBeTruthy();
    cleanup();
    view = renderModal({ ...BUSINESS, isActive: false });
    expect(view.queryByRole("link", { name: "Open subscribe page" })).toBeNull();
  });

  test("an image that fails to load shows the failure text, and can be retried", () => {
    const view = renderModal();
    fireEvent.error(view.getByAltText("QR code to subscribe to Sunrise Bakery"));
    expect(view.getByRole("alert").textContent).toContain(FAILED);
    fireEvent.click(view.getByRole("button", { name: "Try again" }));
    expect(view.queryByText(FAILED)).toBeNull();
    const img = view.getByAltText("QR code to subscribe to Sunrise Bakery");
    expect(img.getAttribute("src")).toBe("/api/business/GetQRCodeImage?id=7&attempt=1");
  });

  test("an inactive business: says so, asks for no QR image and offers no 'Try again'", () => {
    const view = renderModal({ ...BUSINESS, isActive: false });
    expect(view.getByRole("status").textContent).toBe(
      "This business is inactive, so it has no QR code. Make it active to let customers subscribe.",
    );
    expect(view.queryByAltText("QR code to subscribe to Sunrise Bakery")).toBeNull();
    expect(view.queryByRole("button", { name: "Try again" })).toBeNull();
    expect(view.queryByText(FAILED)).toBeNull();
  });

  test("an inactive business, logged in: no link to copy, no Print, and a sentence saying why", () => {
    token.value = "tok";
    const view = renderModal({ ...BUSINESS, isActive: false });
    expect(view.queryByLabelText("Subscription link")).toBeNull();
    expect(view.queryByRole("button", { name: "Copy" })).toBeNull();
    expect(view.queryByRole("button", { name: "Print QR Code" })).toBeNull();
    expect(view.container.textContent).not.toContain("/subscribe?id=7");
    expect(view.getByRole("note").textContent).toBe(QR_INACTIVE_NO_LINK);
    expect(QR_INACTIVE_NO_LINK).toContain("inactive");
  });

  test("Escape, the close button and the backdrop close it", () => {
    let closed = 0;
    const view = renderModal(BUSINESS, () => void (closed += 1));
    fireEvent.keyDown(document, { key: "Escape" });
    expect(closed).toBe(1);
    fireEvent.click(view.getByRole("button", { name: "Close" }));
    expect(closed).toBe(2);
    fireEvent.mouseDown(view.container.querySelector(".modal-backdrop")!);
    expect(closed).toBe(3);
    fireEvent.mouseDown(view.getByRole("dialog"));
    expect(closed).toBe(3);
  });

  test("focus moves into the dialog and returns to the opener on close", () => {
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            QR Code
          </button>
          {open && <QrModal business={BUSINESS} onClose={() => setOpen(false)} />}
        </>
      );
    }
    const view = render(<Page />);
    const opener = view.getByRole("button", { name: "QR Code" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = view.getByRole("dialog");
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(view.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe("PrintPosterPage", () => {
  function mockBusiness(business: PublicBusiness | null) {
    api.routes["GET /api/business/GetBusinessById"] = (call) => {
      expect(call.url).toBe(`/api/business/GetBusinessById?id=${business?.id ?? 99}`);
      return business ? { body: business } : { status: 404, body: { error: "Business not found.", code: "not_found" } };
    };
  }

  test("the poster: name, headline, QR, message, deal by type, opt-out note, disclosure; no nav", async () => {
    mockBusiness({ ...BUSINESS, businessType: { id: 3, name: "Hair Salon" } });
    const view = render(<PrintPosterPage id="7" />);
    await waitFor(() => {
      if (!view.queryByText("Scan for deals!")) throw new Error("not loaded");
    });
    expect(document.body.classList.contains("print-page")).toBe(true);
    expect(view.getByRole("heading", { name: "Sunrise Bakery" })).toBeTruthy();
    expect(view.getByAltText("QR code to subscribe to Sunrise Bakery").getAttribute("src")).toBe("/api/business/GetQRCodeImage?id=7");
    expect(view.getByText("Scan for warm croissant deals!")).toBeTruthy();
    expect(view.getByText("PAMPER DEAL")).toBeTruthy();
    expect(view.getByText("20% OFF your next cut, color or treatment!")).toBeTruthy();
    expect(view.getByText(UNSUBSCRIBE_NOTE)).toBeTruthy();
    expect(view.getByText(posterDisclosure(4))).toBeTruthy();
    expect(view.getByText(`${window.location.origin}/subscribe?id=7`)).toBeTruthy();
    view.unmount();
    expect(document.body.classList.contains("print-page")).toBe(false);
  });

  async function poster(business: PublicBusiness) {
    mockBusiness(business);
    const view = render(<PrintPosterPage id="7" />);
    await waitFor(() => {
      if (!view.queryByText("Scan for deals!")) throw new Error("not loaded");
    });
    return view;
  }

  test("the print page names the saved brand beside the software credit (issue 23)", async () => {
    const plain = await poster(BUSINESS);
    expect(plain.container.querySelector(".ps-powered")?.textContent).toBe("Powered by Nearcast");
    plain.unmount();
    site.value = siteInfo({ brandName: "Main Street Deals" });
    try {
      const branded = await poster(BUSINESS);
      expect(branded.container.querySelector(".ps-powered")?.textContent).toBe("Main Street Deals · Powered by Nearcast");
      expect(branded.container.textContent?.match(/Nearcast/g)).toHaveLength(1);
    } finally {
      site.value = null;
    }
  });

  test("the owner's poster offer replaces the keyword deal; the sample product text is shown", async () => {
    const view = await poster({ ...BUSINESS, businessType: { id: 3, name: "Hair Salon" }, posterOffer: "BAKER'S DOZEN: 13 croissants for the price of 12" });
    expect(view.getByText("BAKER'S DOZEN")).toBeTruthy();
    expect(view.getByText("13 croissants for the price of 12")).toBeTruthy();
    expect(view.queryByText("PAMPER DEAL")).toBeNull();
    expect(view.getByText("Croissants")).toBeTruthy();
  });

  test("a cleared offer prints no offer at all; a never-set one keeps the type's keyword deal", async () => {
    const cleared = await poster({ ...BUSINESS, businessType: { id: 3, name: "Hair Salon" }, posterOffer: "" });
    expect(cleared.container.querySelector(".ps-deal")).toBeNull();
    expect(cleared.queryByText("PAMPER DEAL")).toBeNull();
    expect(cleared.queryByText("SPECIAL OFFER")).toBeNull();
    expect(cleared.getByText("Croissants")).toBeTruthy();
    cleared.unmount();
    const legacy = await poster({ ...BUSINESS, businessType: { id: 3, name: "Hair Salon" }, posterOffer: null });
    expect(legacy.getByText("PAMPER DEAL")).toBeTruthy();
  });

  test("prints 500 ms after the QR image loads, once", async () => {
    mockBusiness(BUSINESS);
    const view = render(<PrintPosterPage id="7" />);
    await waitFor(() => {
      if (!view.queryByAltText("QR code to subscribe to Sunrise Bakery")) throw new Error("not loaded");
    });
    jest.useFakeTimers();
    fireEvent.load(view.getByAltText("QR code to subscribe to Sunrise Bakery"));
    act(() => jest.advanceTimersByTime(PRINT_DELAY_MS - 1));
    expect(printed).toBe(0);
    act(() => jest.advanceTimersByTime(1));
    expect(printed).toBe(1);
    act(() => jest.advanceTimersByTime(5000));
    expect(printed).toBe(1);
  });

  test("prints after 1 s when the image's load event never comes", async () => {
    jest.useFakeTimers();
    mockBusiness(BUSINESS);
    const view = render(<PrintPosterPage id="7" />);
    for (let i = 0; i < 20 && !view.queryByAltText("QR code to subscribe to Sunrise Bakery"); i++) {
      await act(async () => {
        await Promise.resolve();
      });
    }
    expect(view.getByAltText("QR code to subscribe to Sunrise Bakery")).toBeTruthy();
    act(() => jest.advanceTimersByTime(PRINT_FALLBACK_MS - 1));
    expect(printed).toBe(0);
    act(() => jest.advanceTimersByTime(1));
    expect(printed).toBe(1);
  });

  test("a QR image that fails shows the failure text and does not print", async () => {
    mockBusiness(BUSINESS);
    const view = render(<PrintPosterPage id="7" />);
    await waitFor(() => {
      if (!view.queryByAltText("QR code to subscribe to Sunrise Bakery")) throw new Error("not loaded");
    });
    jest.useFakeTimers();
    fireEvent.error(view.getByAltText("QR code to subscribe to Sunrise Bakery"));
    expect(view.getByText(FAILED)).toBeTruthy();
    act(() => jest.advanceTimersByTime(3000));
    expect(printed).toBe(0);
  });

  test("an unknown business says so", async () => {
    mockBusiness(null);
    const view = render(<PrintPosterPage id="99" />);
    await waitFor(() => {
      if (!view.queryByText("Business not found.")) throw new Error("not yet");
    });
    expect(printed).toBe(0);
  });
});
