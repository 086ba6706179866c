// Business screens on happy-dom (the form, My Business, the public list), with fetch mocked at the global (the only
// thing web/shared/api/client.ts calls).
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/businesses/business-form.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { DEFAULT_DEAL_TEXT, initials, sampleDealText } from "../../../src/schemas/poster-text.ts";
import { IMAGE_TOO_LARGE, INVALID_IMAGE } from "../../../src/schemas/texts.ts";
import { BusinessFormPage, CREATE_FAILED, MESSAGES_PER_WEEK_HINT, UPDATE_FAILED } from "../../../web/features/businesses/BusinessForm.tsx";
import { MESSAGES_PER_WEEK_RANGE } from "../../../src/schemas/businesses.ts";
import { LOGO_UPLOAD_FAILED, SAMPLE_IMAGE_ALERT, SAMPLE_IMAGE_REQUIRED, SAMPLE_UPLOAD_FAILED } from "../../../web/features/businesses/BusinessImages.tsx";
import { BusinessListPage } from "../../../web/features/businesses/BusinessList.tsx";
import { DELETE_FAILED, MyBusinessPage } from "../../../web/features/businesses/MyBusiness.tsx";
import { SERVER_TIME_ZONE, TIME_ZONE_HINT } from "../../../web/features/businesses/TimeZoneSelect.tsx";
import { token } from "../../../web/shared/state/session.ts";
import { GIF, JPEG, padded, PNG } from "../../helpers/images.ts";
import { type Answer, mockApi, onePage } from "../../helpers/mock-api.ts";
import { renderAt as renderScreens } from "../render-at.tsx";
import { ROSIES_CORNER_BAKERY } from "./business-fixtures.ts";

const api = mockApi();
const { calls, routes: replies, alerts, confirms } = api;
const realConsoleError = console.error;

beforeEach(() => {
  console.error = () => undefined;
  document.cookie = "XSRF-TOKEN=xsrf-123";
  localStorage.setItem("token", "owner-token");
  token.value = "owner-token";
});

afterEach(() => {
  cleanup();
  console.error = realConsoleError;
  localStorage.clear();
  token.value = null;
});

const B = "/api/business";
const TYPES = "/api/businesstype/GetAllBusinessTypes";

const bakery = { id: 1, name: "Bakery", description: "", isActive: true, createdAt: "2026-01-01T00:00:00.000Z" };
const pizza = { id: 2, name: "Pizza Restaurant", description: "", isActive: true, createdAt: "2026-01-01T00:00:00.000Z" };
const retired = { id: 3, name: "Video Rental", description: "", isActive: false, createdAt: "2026-01-01T00:00:00.000Z" };

const business = ROSIES_CORNER_BAKERY;

const renderAt = (path: string) =>
  renderScreens(path, {
    "/businesses": BusinessListPage,
    "/my-business": MyBusinessPage,
    "/businesses/add": BusinessFormPage,
    "/businesses/edit/:id": BusinessFormPage,
  });

type View = ReturnType<typeof renderAt>;
const type = (el: Element, value: string) => fireEvent.change(el, { target: { value } });
const submitButton = (view: View) => view.getByRole("button", { name: /(Create|Update) Business|Saving/ }) as HTMLButtonElement;
const fileInput = (view: View, name: "logo" | "sample") => view.container.querySelector(`input[type=file][name=${name}]`) as HTMLInputElement;
const fieldError = (view: View, name: "logo" | "sample") => view.container.querySelector(`[data-image=${name}] .field-error`)?.textContent ?? null;
const calledPaths = () => api.paths();

async function choose(view: View, name: "logo" | "sample", bytes: Uint8Array, fileName: string, mime: string) {
  const file = new File([new Uint8Array(bytes)], fileName, { type: mime });
  const input = fileInput(view, name);
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  // The picker checks the file's first bytes before it shows an error or a preview: wait for the picker to change.
  const picker = view.container.querySelector(`[data-image=${name}]`)!;
  const before = picker.innerHTML;
  fireEvent.change(input);
  await waitFor(() => expect(picker.innerHTML !== before).toBe(true));
  return file;
}

async function fillValid(view: View) {
  await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length > 1).toBe(true));
  type(view.getByLabelText("Business Name"), "Rosie's Corner Bakery");
  fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "1" } });
  type(view.getByLabelText("Address"), "12 Baker Street, Springfield");
  type(view.getByLabelText("Phone"), "(217) 555-0134");
  type(view.getByLabelText("Sample Product"), "Sourdough loaf");
}

/** Every field valid, a PNG logo and a JPEG sample chosen. */
async function fillValidWithImages(view: View) {
  await fillValid(view);
  await choose(view, "logo", PNG, "logo.png", "image/png");
  await choose(view, "sample", JPEG, "bread.jpg", "image/jpeg");
}

/** Clicks the form's submit button and lets the requests it starts run. */
async function submit(view: View) {
  await act(async () => {
    fireEvent.click(submitButton(view));
  });
}

describe("add business: fields and validation", () => {
  beforeEach(() => {
    replies[`GET ${TYPES}`] = { body: [bakery, pizza, retired] };
  });

  test("starts empty and active, submit disabled, the type dropdown offers only active types", async () => {
    const view = renderAt("/businesses/add");
    expect(view.getByRole("heading", { level: 1 }).textContent).toBe("Add Business");
    await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(3));
    const options = [...view.container.querySelectorAll("select[name=businessTypeId] option")].map((o) => o.textContent);
    expect(options).toEqual(["Select a business type", "Bakery", "Pizza Restaurant"]);
    expect((view.getByLabelText(/Active/) as HTMLInputElement).checked).toBe(true);
    expect(submitButton(view).disabled).toBe(true);
    expect(submitButton(view).textContent).toBe("Create Business");
    expect(calledPaths()).toEqual([`GET ${TYPES}`]);
  });

  test("each field shows the spec's validation text once left", async () => {
    const view = renderAt("/businesses/add");
    const cases: [string, string, string][] = [
      ["Business Name", "", "Business name is required"],
      ["Business Name", "R", "Name must be at least 2 characters long"],
      ["Business Name", "n".repeat(201), "Name cannot exceed 200 characters"],
      ["Address", "", "Business address is required"],
      ["Address", "Main", "Address must be at least 5 characters long"],
      ["Address", "a".repeat(501), "Address cannot exceed 500 characters"],
      ["Phone", "", "Phone number is required"],
      ["Phone", "12345", "Please enter a valid phone number"],
      ["Sample Product", "", "Sample product description is required"],
      ["Sample Product", "s".repeat(101), "Description cannot exceed 100 characters"],
      ["QR Message", "q".repeat(201), "Message cannot exceed 200 characters"],
      ["Success Message", "m".repeat(201), "Message cannot exceed 200 characters"],
    ];
    for (const [label, value, message] of cases) {
      const el = view.getByLabelText(label);
      type(el, value);
      fireEvent.blur(el);
      const describedBy = el.getAttribute("aria-describedby") ?? "";
      const error = describedBy
        .split(" ")
        .map((id) => document.getElementById(id))
        .find((n) => n?.classList.contains("field-error"));
      expect(`${label}: ${error?.textContent}`).toBe(`${label}: ${message}`);
      expect(el.getAttribute("aria-invalid")).toBe("true");
    }
    const select = view.getByLabelText("Business Type");
    fireEvent.blur(select);
    expect(view.getByText("Business type is required")).toBeTruthy();
    expect(submitButton(view).disabled).toBe(true);
  });

  test("counters follow the text", async () => {
    const view = renderAt("/businesses/add");
    expect(view.getByText("0/100")).toBeTruthy();
    type(view.getByLabelText("Sample Product"), "Sourdough");
    expect(view.getByText("9/100")).toBeTruthy();
    type(view.getByLabelText("QR Message"), "Hello");
    expect(view.getByText("5/200")).toBeTruthy();
  });

  test("the poster offer starts as the chosen type's keyword deal and follows the type until the owner edits it", async () => {
    const view = renderAt("/businesses/add");
    const offer = () => (view.getByLabelText("Poster Offer") as HTMLTextAreaElement).value;
    await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(3));
    expect(offer()).toBe(DEFAULT_DEAL_TEXT);
    expect(view.getByText(`${DEFAULT_DEAL_TEXT.length}/100`)).toBeTruthy();
    fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "2" } });
    expect(offer()).toBe("TODAY'S TREAT: Buy one meal, get the second 50% OFF!");
    fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "1" } });
    expect(offer()).toBe(DEFAULT_DEAL_TEXT);
    type(view.getByLabelText("Poster Offer"), "Two loaves for $5");
    fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "2" } });
    expect(offer()).toBe("Two loaves for $5");
    expect(view.getByText("17/100")).toBeTruthy();
  });

  test("the poster offer: over 100 characters is refused; the owner may clear it, and it is sent empty", async () => {
    replies[`POST ${B}/UploadSampleImage`] = { status: 201, body: { filePath: "/uploads/sample-path.jpg" } };
    replies[`POST ${B}/CreateBusiness`] = { status: 201, body: business };
    replies[`GET ${B}/ListBusinesses`] = { body: onePage([]) };
    const view = renderAt("/businesses/add");
    await fillValid(view);
    const field = view.getByLabelText("Poster Offer");
    type(field, "o".repeat(101));
    fireEvent.blur(field);
    expect(view.getByText("Offer cannot exceed 100 characters")).toBeTruthy();
    expect(submitButton(view).disabled).toBe(true);
    type(field, "");
    // Cleared stays cleared: choosing another type does not bring the keyword deal back.
    fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "2" } });
    expect((field as HTMLTextAreaElement).value).toBe("");
    await choose(view, "sample", JPEG, "bread.jpg", "image/jpeg");
    await submit(view);
    await waitFor(() => expect(calledPaths()).toContain(`POST ${B}/CreateBusiness`));
    expect(calls.find((c) => c.url.endsWith("CreateBusiness"))!.body).toMatchObject({ businessTypeId: 2, posterOffer: "" });
  });

  test("a valid form enables submit; without a sample image it alerts the spec text and sends nothing", async () => {
    const view = renderAt("/businesses/add");
    await fillValid(view);
    expect(submitButton(view).disabled).toBe(false);
    await submit(view);
    expect(alerts).toEqual([SAMPLE_IMAGE_ALERT]);
    expect(SAMPLE_IMAGE_ALERT).toBe("Sample product image is required. Please upload an image.");
    expect(fieldError(view, "sample")).toBe(SAMPLE_IMAGE_REQUIRED);
    expect(calledPaths()).toEqual([`GET ${TYPES}`]);
  });

  test("client-side file checks: content that is not an image, and files over 5MB, are refused before any upload", async () => {
    const view = renderAt("/businesses/add");
    await choose(view, "logo", new TextEncoder().encode("<html><body>hi</body></html>"), "cat.png", "image/png");
    expect(fieldError(view, "logo")).toBe(INVALID_IMAGE);
    expect(INVALID_IMAGE).toBe("Please select a valid image file (JPG, PNG, GIF, BMP)");
    expect(view.container.querySelector("[data-image=logo] img")).toBeNull();

    await choose(view, "sample", padded(PNG, 5242881), "huge.png", "image/png");
    expect(fieldError(view, "sample")).toBe(IMAGE_TOO_LARGE);
    expect(IMAGE_TOO_LARGE).toBe("File size cannot exceed 5MB");

    await choose(view, "sample", new Uint8Array(0), "empty.jpg", "image/jpeg");
    expect(fieldError(view, "sample")).toBe(INVALID_IMAGE);

    // A good file clears the error and shows a preview.
    await choose(view, "sample", padded(PNG, 5242880), "ok.png", "image/png");
    expect(fieldError(view, "sample")).toBeNull();
    expect(view.container.querySelector("[data-image=sample] img")).not.toBeNull();
    expect(view.getByText("Selected: ok.png")).toBeTruthy();
    expect(calledPaths()).toEqual([`GET ${TYPES}`]);
  });

  test("a chosen image can be removed", async () => {
    const view = renderAt("/businesses/add");
    await choose(view, "logo", GIF, "logo.gif", "image/gif");
    expect(view.container.querySelector("[data-image=logo] img")).not.toBeNull();
    fireEvent.click(view.getByRole("button", { name: "Remove" }));
    expect(view.container.querySelector("[data-image=logo] img")).toBeNull();
    expect(view.getByRole("button", { name: /Choose logo/ })).toBeTruthy();
  });
});

describe("add business: upload, then save", () => {
  beforeEach(() => {
    replies[`GET ${TYPES}`] = { body: [bakery, pizza, retired] };
    // After a create, My Business loads (issue 23: the owner's next step is there, not on the public list).
    replies[`GET ${B}/GetMyBusinesses`] = { body: [] };
  });

  test("uploads the logo, then the sample image, then sends the business with both paths; then a toast and My Business", async () => {
    replies[`POST ${B}/UploadLogo`] = { status: 201, body: { filePath: "/uploads/logo-path.png" } };
    replies[`POST ${B}/UploadSampleImage`] = { status: 201, body: { filePath: "/uploads/sample-path.jpg" } };
    replies[`POST ${B}/CreateBusiness`] = { status: 201, body: { ...business, id: 99 } };
    const view = renderAt("/businesses/add");
    await fillValid(view);
    const logo = await choose(view, "logo", PNG, "logo.png", "image/png");
    const sample = await choose(view, "sample", JPEG, "bread.jpg", "image/jpeg");
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/my-business"));
    expect(calledPaths()).toEqual([
      `GET ${TYPES}`,
      `POST ${B}/UploadLogo`,
      `POST ${B}/UploadSampleImage`,
      `POST ${B}/CreateBusiness`,
      `GET ${B}/GetMyBusinesses`,
    ]);
    const [, upLogo, upSample, create] = calls;
    expect(upLogo!.body).toBeInstanceOf(FormData);
    expect(((upLogo!.body as FormData).get("file") as File).name).toBe(logo.name);
    expect(((upSample!.body as FormData).get("file") as File).name).toBe(sample.name);
    expect(upLogo!.headers["x-xsrf-token"]).toBe("xsrf-123");
    expect(upLogo!.headers.authorization).toBe("Bearer owner-token");
    expect(create!.body).toEqual({
      name: "Rosie's Corner Bakery",
      businessTypeId: 1,
      address: "12 Baker Street, Springfield",
      phone: "(217) 555-0134",
      sampleProductText: "Sourdough loaf",
      qrMessage: "",
      successMessage: "",
      posterOffer: DEFAULT_DEAL_TEXT,
      messagesPerWeek: 4,
      timeZone: null,
      isActive: true,
      doubleOptIn: false,
      keyword: null,
      logoImagePath: "/uploads/logo-path.png",
      sampleImagePath: "/uploads/sample-path.jpg",
    });
    expect(alerts).toEqual([]);
  });

  test("without a logo only the sample image is uploaded, and the logo is sent as null", async () => {
    replies[`POST ${B}/UploadSampleImage`] = { status: 201, body: { filePath: "/uploads/sample-path.jpg" } };
    replies[`POST ${B}/CreateBusiness`] = { status: 201, body: business };
    const view = renderAt("/businesses/add");
    await fillValid(view);
    await choose(view, "sample", JPEG, "bread.jpg", "image/jpeg");
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/my-business"));
    expect(calledPaths()).toEqual([`GET ${TYPES}`, `POST ${B}/UploadSampleImage`, `POST ${B}/CreateBusiness`, `GET ${B}/GetMyBusinesses`]);
    expect((calls.find((c) => c.url.endsWith("CreateBusiness"))!.body as { logoImagePath: unknown }).logoImagePath).toBeNull();
  });

  test("submit is disabled while uploading", async () => {
    let release!: () => void;
    replies[`POST ${B}/UploadSampleImage`] = () =>
      new Promise<Answer>((resolve) => {
        release = () => resolve({ status: 201, body: { filePath: "/uploads/s.jpg" } });
      });
    replies[`POST ${B}/CreateBusiness`] = { status: 201, body: business };
    const view = renderAt("/businesses/add");
    await fillValid(view);
    await choose(view, "sample", JPEG, "bread.jpg", "image/jpeg");
    await submit(view);
    await waitFor(() => expect(submitButton(view).disabled).toBe(true));
    expect(submitButton(view).textContent).toBe("Saving...");
    // A second click does nothing.
    fireEvent.click(submitButton(view));
    await act(async () => release());
    await waitFor(() => expect(view.at()).toBe("/my-business"));
    expect(calledPaths().filter((p) => p.endsWith("UploadSampleImage"))).toHaveLength(1);
  });

  test("a failed logo upload aborts the save: the spec's alert, no sample upload, no business", async () => {
    replies[`POST ${B}/UploadLogo`] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = renderAt("/businesses/add");
    await fillValidWithImages(view);
    await submit(view);
    await waitFor(() => expect(alerts).toEqual([LOGO_UPLOAD_FAILED]));
    expect(LOGO_UPLOAD_FAILED).toBe("Error uploading logo. Please try again.");
    expect(calledPaths()).toEqual([`GET ${TYPES}`, `POST ${B}/UploadLogo`]);
    expect(view.at()).toBe("/businesses/add");
    expect(submitButton(view).disabled).toBe(false);
  });

  test("a failed sample upload aborts the save; trying again does not upload the logo twice", async () => {
    replies[`POST ${B}/UploadLogo`] = { status: 201, body: { filePath: "/uploads/logo-path.png" } };
    replies[`POST ${B}/UploadSampleImage`] = { status: 413, body: { error: "File size cannot exceed 5MB", code: "payload_too_large" } };
    const view = renderAt("/businesses/add");
    await fillValidWithImages(view);
    await submit(view);
    await waitFor(() => expect(alerts).toEqual([SAMPLE_UPLOAD_FAILED]));
    expect(SAMPLE_UPLOAD_FAILED).toBe("Error uploading sample image. Please try again.");
    expect(calledPaths()).toEqual([`GET ${TYPES}`, `POST ${B}/UploadLogo`, `POST ${B}/UploadSampleImage`]);

    replies[`POST ${B}/UploadSampleImage`] = { status: 201, body: { filePath: "/uploads/sample-path.jpg" } };
    replies[`POST ${B}/CreateBusiness`] = { status: 201, body: business };
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/my-business"));
    expect(calledPaths().slice(3)).toEqual([`POST ${B}/UploadSampleImage`, `POST ${B}/CreateBusiness`, `GET ${B}/GetMyBusinesses`]);
    expect(calls.find((c) => c.url.endsWith("CreateBusiness"))!.body).toMatchObject({ logoImagePath: "/uploads/logo-path.png", sampleImagePath: "/uploads/sample-path.jpg" });
  });

  test("a failed save alerts 'Error creating business. Please try again.' and stays", async () => {
    replies[`POST ${B}/UploadSampleImage`] = { status: 201, body: { filePath: "/uploads/s.jpg" } };
    replies[`POST ${B}/CreateBusiness`] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = renderAt("/businesses/add");
    await fillValid(view);
    await choose(view, "sample", JPEG, "bread.jpg", "image/jpeg");
    await submit(view);
    await waitFor(() => expect(alerts).toEqual([CREATE_FAILED]));
    expect(CREATE_FAILED).toBe("Error creating business. Please try again.");
    expect(view.at()).toBe("/businesses/add");
  });
});

describe("edit business", () => {
  beforeEach(() => {
    replies[`GET ${TYPES}`] = { body: [bakery, pizza, retired] };
    replies[`GET ${B}/ListBusinesses`] = { body: onePage([]) };
  });

  test("loads the record with its images; a retired current type stays selectable; defaults show as empty", async () => {
    replies[`GET ${B}/GetBusinessById`] = { body: { ...business, businessTypeId: 3, businessType: { id: 3, name: "Video Rental" } } };
    const view = renderAt("/businesses/edit/42");
    await waitFor(() => expect((view.queryByLabelText("Business Name") as HTMLInputElement | null)?.value).toBe("Rosie's Corner Bakery"));
    await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(4));
    const options = [...view.container.querySelectorAll("select[name=businessTypeId] option")].map((o) => o.textContent);
    expect(options).toEqual(["Select a business type", "Bakery", "Pizza Restaurant", "Video Rental (inactive)"]);
    expect((view.getByLabelText("Business Type") as HTMLSelectElement).value).toBe("3");
    expect((view.getByLabelText("QR Message") as HTMLTextAreaElement).value).toBe("Scan for warm bread");
    expect((view.getByLabelText("Success Message") as HTMLTextAreaElement).value).toBe("");
    expect(view.container.querySelector("[data-image=logo] img")?.getAttribute("src")).toBe(business.logoImagePath);
    expect(view.container.querySelector("[data-image=sample] img")?.getAttribute("src")).toBe(business.sampleImagePath);
    expect(calls.find((c) => c.url.includes("GetBusinessById"))?.url).toBe(`${B}/GetBusinessById?id=42`);
    expect(submitButton(view).textContent).toBe("Update Business");
  });

  test("the stored poster offer is shown, kept when the type changes, and sent back as it is", async () => {
    replies[`GET ${B}/GetBusinessById`] = { body: business };
    replies[`PUT ${B}/UpdateBusiness`] = { body: business };
    const view = renderAt("/businesses/edit/42");
    await waitFor(() => expect((view.queryByLabelText("Poster Offer") as HTMLTextAreaElement | null)?.value).toBe(business.posterOffer));
    await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(3));
    fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "2" } });
    expect((view.getByLabelText("Poster Offer") as HTMLTextAreaElement).value).toBe(business.posterOffer);
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/businesses"));
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({ businessTypeId: 2, posterOffer: business.posterOffer });
  });

  test("messages per week: 4 to start, with its help text; 0 or 51 is refused; the stored number is shown and sent back", async () => {
    const fresh = renderAt("/businesses/add");
    const field = () => fresh.getByLabelText("Messages per week (at most)") as HTMLInputElement;
    await waitFor(() => expect(field().value).toBe("4"));
    expect(field().type).toBe("number");
    expect(fresh.getByText(MESSAGES_PER_WEEK_HINT)).toBeTruthy();
    for (const bad of ["0", "51", "2.5"]) {
      type(field(), bad);
      fireEvent.blur(field());
      expect(fresh.getByText(MESSAGES_PER_WEEK_RANGE)).toBeTruthy();
    }
    fresh.unmount();

    replies[`GET ${B}/GetBusinessById`] = { body: business };
    replies[`PUT ${B}/UpdateBusiness`] = { body: business };
    const view = renderAt("/businesses/edit/42");
    await waitFor(() => expect((view.queryByLabelText("Messages per week (at most)") as HTMLInputElement | null)?.value).toBe("6"));
    type(view.getByLabelText("Messages per week (at most)"), "10");
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/businesses"));
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({ messagesPerWeek: 10 });
  });

  test("time zone: the server's to start, every zone the browser knows offered; the stored one shown, changed and sent back", async () => {
    const fresh = renderAt("/businesses/add");
    const zone = (view: View) => view.getByLabelText("Time Zone") as HTMLSelectElement;
    await waitFor(() => expect(zone(fresh).value).toBe(""));
    const offered = [...zone(fresh).options].map((o) => o.value);
    expect(offered).toEqual(["", ...Intl.supportedValuesOf("timeZone")]);
    expect(zone(fresh).options[0]!.textContent).toBe(SERVER_TIME_ZONE);
    expect(fresh.getByText(TIME_ZONE_HINT)).toBeTruthy();
    fresh.unmount();

    replies[`GET ${B}/GetBusinessById`] = { body: { ...business, timeZone: "America/Chicago" } };
    replies[`PUT ${B}/UpdateBusiness`] = { body: business };
    const view = renderAt("/businesses/edit/42");
    await waitFor(() => expect(zone(view).value).toBe("America/Chicago"));
    fireEvent.change(zone(view), { target: { value: "Europe/Paris" } });
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/businesses"));
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({ timeZone: "Europe/Paris" });
  });

  test("time zone: a saved alias the browser does not list stays chosen; back to the server's sends null", async () => {
    replies[`GET ${B}/GetBusinessById`] = { body: { ...business, timeZone: "US/Pacific" } };
    replies[`PUT ${B}/UpdateBusiness`] = { body: business };
    const view = renderAt("/businesses/edit/42");
    const zone = () => view.getByLabelText("Time Zone") as HTMLSelectElement;
    await waitFor(() => expect(zone().value).toBe("US/Pacific"));
    fireEvent.change(zone(), { target: { value: "" } });
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/businesses"));
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({ timeZone: null });
  });

  test("a stored empty offer stays empty; one never set shows the type's keyword deal its poster prints", async () => {
    replies[`GET ${B}/GetBusinessById`] = { body: { ...business, posterOffer: "" } };
    const cleared = renderAt("/businesses/edit/42");
    await waitFor(() => expect((cleared.queryByLabelText("Business Name") as HTMLInputElement | null)?.value).toBe(business.name));
    expect((cleared.getByLabelText("Poster Offer") as HTMLTextAreaElement).value).toBe("");
    cleanup();
    replies[`GET ${B}/GetBusinessById`] = { body: { ...business, posterOffer: null, businessTypeId: 2, businessType: { id: 2, name: "Pizza Restaurant" } } };
    const legacy = renderAt("/businesses/edit/42");
    await waitFor(() => expect((legacy.queryByLabelText("Poster Offer") as HTMLTextAreaElement | null)?.value).toBe(sampleDealText("Pizza Restaurant")));
    await waitFor(() => expect(legacy.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(3));
    fireEvent.change(legacy.getByLabelText("Business Type"), { target: { value: "1" } });
    expect((legacy.getByLabelText("Poster Offer") as HTMLTextAreaElement).value).toBe(DEFAULT_DEAL_TEXT);
  });

  test("removing the logo clears its path; nothing is uploaded; PUT to UpdateBusiness?id=", async () => {
    replies[`GET ${B}/GetBusinessById`] = { body: business };
    replies[`PUT ${B}/UpdateBusiness`] = { body: business };
    const view = renderAt("/businesses/edit/42");
    await waitFor(() => expect(view.container.querySelector("[data-image=logo] img") !== null).toBe(true));
    const removeLogo = view.container.querySelector("[data-image=logo] .btn-danger") as HTMLButtonElement;
    fireEvent.click(removeLogo);
    await submit(view);
    await waitFor(() => expect(view.at()).toBe("/businesses"));
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.url).toBe(`${B}/UpdateBusiness?id=42`);
    expect(put.body).toMatchObject({ logoImagePath: null, sampleImagePath: business.sampleImagePath, name: business.name });
    expect(calledPaths().some((p) => p.includes("Upload"))).toBe(false);
  });

  test("removing the sample image makes it required again", async () => {
    replies[`GET ${B}/GetBusinessById`] = { body: business };
    const view = renderAt("/businesses/edit/42");
    await waitFor(() => expect(view.container.querySelector("[data-image=sample] img") !== null).toBe(true));
    fireEvent.click(view.container.querySelector("[data-image=sample] .btn-danger") as HTMLButtonElement);
    await submit(view);
    expect(alerts).toEqual([SAMPLE_IMAGE_ALERT]);
    expect(calledPaths().some((p) => p.startsWith("PUT"))).toBe(false);
  });

  test("a replaced sample image is uploaded before the update", async () => {
    replies[`GET ${B}/GetBusinessById`] = { body: business };
    replies[`POST ${B}/UploadSampleImage`] = { status: 201, body: { filePath: "/uploads/new.gif" } };
    replies[`PUT ${B}/UpdateBusiness`] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = renderAt("/businesses/edit/42");
    await waitFor(() => expect(view.container.querySelector("[data-image=sample] img") !== null).toBe(true));
    await choose(view, "sample", GIF, "new.gif", "image/gif");
    await submit(view);
    await waitFor(() => expect(alerts).toEqual([UPDATE_FAILED]));
    expect(UPDATE_FAILED).toBe("Error updating business. Please try again.");
    expect(calledPaths().slice(-2)).toEqual([`POST ${B}/UploadSampleImage`, `PUT ${B}/UpdateBusiness`]);
    expect(calls.at(-1)!.body).toMatchObject({ sampleImagePath: "/uploads/new.gif", logoImagePath: business.logoImagePath });
  });

  test("a record that cannot be loaded sends the user back to My Business", async () => {
    replies[`GET ${B}/GetBusinessById`] = { status: 404, body: { error: "Business not found.", code: "not_found" } };
    replies[`GET ${B}/GetMyBusinesses`] = { body: [] };
    const view = renderAt("/businesses/edit/777");
    await waitFor(() => expect(view.at()).toBe("/my-business"));
  });
});

describe("My Business", () => {
  const inactive = { ...business, id: 43, name: "Closed Shop", isActive: false, logoImagePath: null, createdAt: "2026-01-02T00:00:00.000Z" };

  test("cards with badge, logo or two initials, created date and the four actions", async () => {
    replies[`GET ${B}/GetMyBusinesses`] = { body: [business, inactive] };
    const view = renderAt("/my-business");
    expect(view.getByRole("heading", { level: 1 }).textContent).toBe("My Business");
    await waitFor(() => expect(view.container.querySelectorAll(".biz-card").length).toBe(2));
    const [first, second] = [...view.container.querySelectorAll(".biz-card")];
    expect(first!.querySelector(".badge")?.textContent).toBe("Active");
    expect(second!.querySelector(".badge")?.textContent).toBe("Inactive");
    expect(first!.querySelector(".biz-avatar img")?.getAttribute("src")).toBe(business.logoImagePath);
    expect(second!.querySelector(".initials")?.textContent).toBe("CS");
    expect(first!.textContent).toContain("Mar 5, 2026");
    expect(view.getByRole("link", { name: /Broadcast to subscribers of Rosie/ }).getAttribute("href")).toBe("/businesses/broadcast/42");
    expect(view.getByRole("link", { name: /Edit Rosie/ }).getAttribute("href")).toBe("/businesses/edit/42");
    expect(view.getAllByRole("link", { name: /Add Business/ })[0]!.getAttribute("href")).toBe("/businesses/add");
    expect(view.queryByRole("button", { name: "Subscribe" })).toBeNull();
  });

  test("QR Code opens the QR modal of that business", async () => {
    replies[`GET ${B}/GetMyBusinesses`] = { body: [business] };
    const view = renderAt("/my-business");
    await waitFor(() => expect(view.queryByRole("button", { name: /QR Code of Rosie/ }) !== null).toBe(true));
    fireEvent.click(view.getByRole("button", { name: /QR Code of Rosie/ }));
    expect(view.getByRole("dialog").textContent).toContain("Rosie's Corner Bakery");
  });

  test("delete asks first in the app's dialog (never confirm()); cancelled sends nothing; confirmed deletes and reloads", async () => {
    replies[`GET ${B}/GetMyBusinesses`] = { body: [business, inactive] };
    replies[`GET ${B}/GetMySubscriberCounts`] = { body: [{ businessId: 43, subscribers: 2 }] };
    replies[`DELETE ${B}/DeleteBusiness`] = { body: { message: "Business deleted." } };
    const view = renderAt("/my-business");
    await waitFor(() => expect(view.container.querySelectorAll(".biz-card").length).toBe(2));
    // The counts are in (a small list: no name to type).
    await waitFor(() => expect(view.queryByText("2 subscribers") !== null).toBe(true));
    fireEvent.click(view.getByRole("button", { name: "Delete Closed Shop" }));
    expect(view.getByRole("dialog", { name: "Delete Closed Shop?" })).toBeTruthy();
    fireEvent.click(view.getByRole("button", { name: "Cancel" }));
    expect(view.queryByRole("dialog")).toBeNull();
    expect(confirms).toEqual([]);
    expect(calledPaths().filter((p) => p.startsWith("DELETE"))).toEqual([]);

    replies[`GET ${B}/GetMyBusinesses`] = { body: [business] };
    fireEvent.click(view.getByRole("button", { name: "Delete Closed Shop" }));
    await act(async () => {
      fireEvent.click(view.getByRole("button", { name: "Delete business" }));
    });
    await waitFor(() => expect(view.container.querySelectorAll(".biz-card").length).toBe(1));
    expect(calls.find((c) => c.method === "DELETE")?.url).toBe(`${B}/DeleteBusiness?id=43`);
    expect(confirms).toEqual([]);
  });

  test("a failed delete alerts the spec's text", async () => {
    replies[`GET ${B}/GetMyBusinesses`] = { body: [business] };
    replies[`GET ${B}/GetMySubscriberCounts`] = { body: [{ businessId: 42, subscribers: 3 }] };
    replies[`DELETE ${B}/DeleteBusiness`] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = renderAt("/my-business");
    await waitFor(() => expect(view.queryByText("3 subscribers") !== null).toBe(true));
    fireEvent.click(view.getByRole("button", { name: /Delete Rosie/ }));
    await act(async () => {
      fireEvent.click(view.getByRole("button", { name: "Delete business" }));
    });
    await waitFor(() => expect(alerts).toEqual([DELETE_FAILED]));
    expect(DELETE_FAILED).toBe("Error deleting business. Please try again.");
  });

  test("logged out: no Add Business, a Subscribe button instead of the owner's actions", async () => {
    localStorage.clear();
    token.value = null;
    replies[`GET ${B}/GetMyBusinesses`] = { body: [business] };
    const view = renderAt("/my-business");
    await waitFor(() => expect(view.container.querySelectorAll(".biz-card").length).toBe(1));
    expect(view.queryByRole("link", { name: /Add Business/ })).toBeNull();
    expect(view.getByRole("button", { name: "Subscribe" })).toBeTruthy();
    expect(view.queryByRole("button", { name: /Delete/ })).toBeNull();
  });

  test("a failed load is logged and the spinner stops", async () => {
    replies[`GET ${B}/GetMyBusinesses`] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = renderAt("/my-business");
    await waitFor(() => expect(view.container.querySelector(".spinner") === null).toBe(true));
    expect(alerts).toEqual([]);
  });
});

describe("public business list", () => {
  test("title, subtitle, cards with logo or three initials, type or 'Unknown Type', address, SUBSCRIBE opens the QR modal", async () => {
    const noType = { ...business, id: 5, name: "Joe's Pizza Place Downtown", logoImagePath: null, businessType: null };
    replies[`GET ${B}/ListBusinesses`] = { body: onePage([business, noType]) };
    const view = renderAt("/businesses");
    expect(view.getByRole("heading", { level: 1 }).textContent).toBe("Nearcast Businesses");
    expect(view.getByText("Subscribe to get notifications from your favorite businesses")).toBeTruthy();
    await waitFor(() => expect(view.container.querySelectorAll(".biz-card").length).toBe(2));
    const [first, second] = [...view.container.querySelectorAll(".biz-card")];
    expect(first!.querySelector("img")?.getAttribute("src")).toBe(business.logoImagePath);
    expect(first!.textContent).toContain("Bakery");
    expect(first!.textContent).toContain("12 Baker Street, Springfield");
    expect(second!.querySelector(".initials")?.textContent).toBe("JPP");
    expect(second!.textContent).toContain("Unknown Type");
    fireEvent.click(view.getByRole("button", { name: /Subscribe to Joe's/ }));
    expect(view.getByRole("dialog").textContent).toContain("Joe's Pizza Place Downtown");
    fireEvent.click(view.getByRole("button", { name: "Close" }));
    expect(view.queryByRole("dialog")).toBeNull();
  });
});

describe("initials", () => {
  test("one letter per word, up to max, upper case", () => {
    expect(initials("Rosie's Corner Bakery", 2)).toBe("RC");
    expect(initials("Rosie's Corner Bakery", 3)).toBe("RCB");
    expect(initials("  joe   pizza ", 3)).toBe("JP");
    expect(initials("Café Ümlaut", 2)).toBe("CÜ");
    expect(initials("& Co", 2)).toBe("C");
    expect(initials("!!!", 2)).toBe("?");
  });
});
