// The contract check the fake Twilio runs on every request (test/helpers/twilio-contract.ts): what Twilio's own
// definitions accept passes, and each way of breaking them is caught with the answer Twilio gives.
import { describe, expect, test } from "bun:test";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { type ContractRequest, checkTwilioRequest } from "../helpers/twilio-contract.ts";

const MESSAGES = `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Messages.json`;
const FORM = "application/x-www-form-urlencoded";
const SID = "SM0123456789abcdef0123456789abcdef";
const HX = "HX11111111111111111111111111111111";

const send = (form: ContractRequest["form"], extra: Partial<ContractRequest> = {}): ContractRequest => ({
  method: "POST",
  path: MESSAGES,
  query: {},
  form,
  contentType: `${FORM}; charset=utf-8`,
  ...extra,
});
const read = (path: string, query: ContractRequest["query"] = {}): ContractRequest => ({ method: "GET", path, query, form: {}, contentType: null });
const problems = (req: ContractRequest) => checkTwilioRequest(req).map((p) => p.problem);
const codes = (req: ContractRequest) => checkTwilioRequest(req).map((p) => [p.status, p.code]);

describe("requests Twilio's definitions accept", () => {
  test("the message creates Nearcast makes: SMS with media and callback, service sender, WhatsApp template", () => {
    expect(problems(send({ To: "+15551230001", From: "+15550001111", Body: "Fresh bread at 7", MediaUrl: ["https://shop.example/uploads/a.jpg", "https://shop.example/uploads/b.png"], StatusCallback: "https://shop.example/api/webhooks/twilio/status?delivery=4", ValidityPeriod: "3600" }))).toEqual([]);
    expect(problems(send({ To: "+447700900123", MessagingServiceSid: "MG0123456789abcdef0123456789abcdef", Body: "Hi" }))).toEqual([]);
    expect(problems(send({ To: "whatsapp:+5511988887777", From: "whatsapp:+15550002222", ContentSid: HX, ContentVariables: '{"1":"Rosa"}' }))).toEqual([]);
  });

  test("the reads: one message, the list with its filters and paging, the account, the Content API", () => {
    expect(problems(read(`/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Messages/${SID}.json`))).toEqual([]);
    expect(problems(read(MESSAGES, { To: "+15551230001", From: "+15550001111", PageSize: "50", Page: "1", PageToken: "PASM1" }))).toEqual([]);
    expect(problems(read(`/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}.json`))).toEqual([]);
    expect(problems(read("/v1/Content", { PageSize: "50" }))).toEqual([]);
    expect(problems(read(`/v1/Content/${HX}/ApprovalRequests`))).toEqual([]);
  });
});

describe("requests they refuse, answered as Twilio does", () => {
  test("an unknown parameter (a misspelt name, or one of another API)", () => {
    expect(problems(send({ To: "+15551230001", From: "+15550001111", Body: "x", StatusCallbackMethod: "POST" }))).toEqual([
      "StatusCallbackMethod: not a parameter of this operation's form body",
    ]);
    expect(problems(send({ To: "+15551230001", From: "+15550001111", body: "x" }))).toEqual(["body: not a parameter of this operation's form body"]);
    expect(problems(read(MESSAGES, { DateSentAfter: "2024-01-01" }))).toEqual(["DateSentAfter: not a parameter of this operation's query"]);
  });

  test("a phone number that is not E.164: 21211 for To, 21212 for From", () => {
    expect(codes(send({ To: "555-0100", From: "+15550001111", Body: "x" }))).toEqual([[400, 21211]]);
    expect(codes(send({ To: "+15551230001", From: "15550001111", Body: "x" }))).toEqual([[400, 21212]]);
    expect(problems(read(MESSAGES, { To: "(555) 010-0000" }))[0]).toContain("not an E.164 phone number");
  });

  test("URIs: a relative StatusCallback (21609), a MediaUrl that is a path (21620)", () => {
    expect(codes(send({ To: "+15551230001", From: "+15550001111", Body: "x", StatusCallback: "/api/webhooks/twilio/status" }))).toEqual([[400, 21609]]);
    expect(codes(send({ To: "+15551230001", From: "+15550001111", MediaUrl: "uploads/a.jpg" }))).toEqual([[400, 21620]]);
  });

  test("ValidityPeriod outside 1..36000 seconds or not an integer (21624)", () => {
    for (const v of ["0", "36001", "60.5", "soon"]) expect(codes(send({ To: "+15551230001", From: "+15550001111", Body: "x", ValidityPeriod: v }))).toEqual([[400, 21624]]);
    expect(codes(send({ To: "+15551230001", From: "+15550001111", Body: "x", ValidityPeriod: "36000" }))).toEqual([]);
  });

  test("enums, sid patterns, booleans, a repeated single value, a missing To", () => {
    expect(problems(send({ To: "+15551230001", From: "+15550001111", Body: "x", ContentRetention: "forever" }))[0]).toContain("not one of retain, discard");
    expect(codes(send({ To: "+15551230001", From: "+15550001111", ContentSid: "HXshort" }))).toEqual([[400, 21655]]);
    expect(problems(send({ To: "+15551230001", From: "+15550001111", Body: "x", SendAsMms: "yes" }))[0]).toContain("not true or false");
    expect(problems(send({ To: ["+15551230001", "+15551230002"], From: "+15550001111", Body: "x" }))).toEqual(["To: repeated, but not a list"]);
    expect(problems(send({ From: "+15550001111", Body: "x" }))).toEqual(["To: required in the form body, missing"]);
    expect(problems(read(MESSAGES, { PageSize: "5000" }))).toEqual(['PageSize: "5000" above 1000']);
  });

  test("a path or method the API does not have; a form body that is not form-encoded", () => {
    expect(codes(read(`/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Message.json`))).toEqual([[404, 20404]]);
    expect(codes(read(`/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Messages/12345.json`))).toEqual([[404, 20404]]);
    expect(codes(read("/2010-04-01/Accounts/not-a-sid/Messages.json"))).toEqual([[404, 20404]]);
    expect(codes({ ...read("/v1/Content"), method: "DELETE" })).toEqual([[405, 20004]]);
    expect(codes(send({ To: "+15551230001", From: "+15550001111", Body: "x" }, { contentType: "application/json" }))).toEqual([[400, 20001]]);
  });
});

describe("the fake Twilio runs the check on every request", () => {
  const auth = `Basic ${Buffer.from(`${FAKE_ACCOUNT_SID}:${FAKE_AUTH_TOKEN}`).toString("base64")}`;
  const post = (url: string, form: Record<string, string>) =>
    fetch(url, { method: "POST", headers: { authorization: auth, "content-type": FORM }, body: new URLSearchParams(form) });

  test("a refused request gets Twilio's answer, sends nothing, and stop() fails with it until taken back", async () => {
    const fake = startFakeTwilio();
    const res = await post(`${fake.url}${MESSAGES}`, { To: "+15551230001", From: "+15550001111", Body: "x", ValidityPeriod: "0" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 21624, status: 400 });
    expect(fake.messages.size).toBe(0);
    fake.reset();
    await expect(fake.stop()).rejects.toThrow(/ValidityPeriod: "0" below 1/);
    // A violation taken back by the test (one it sends on purpose) lets the fake stop cleanly.
    const again = startFakeTwilio();
    await post(`${again.url}${MESSAGES}`, { To: "+15551230001", From: "+15550001111", Bodyy: "x" });
    expect(again.takeContractViolations()).toEqual([`POST ${MESSAGES}: Bodyy: not a parameter of this operation's form body`]);
    await again.stop();
  });

  test("a request that fits goes through as before", async () => {
    const fake = startFakeTwilio();
    const res = await post(`${fake.url}${MESSAGES}`, { To: "+15551230001", From: "+15550001111", Body: "x", ValidityPeriod: "60" });
    expect(res.status).toBe(201);
    expect(fake.messages.size).toBe(1);
    await fake.stop();
  });
});
