// The fallback load generator of bench/webhooks.ts (used only when wrk is missing): autocannon POSTing Twilio status callbacks, signed the way Twilio signs them
// (twilio's own getExpectedTwilioSignature over PUBLIC_URL + path + query + the sorted form fields). Each message
// gets `sent` then `delivered`, so half the callbacks move a delivery forward and half are late duplicates that
// must change nothing. Requests are signed before the run starts, so signing costs the generator nothing.
//   node load.mjs <baseUrl> <seconds> <connections> <first index> <count> <auth token> <public url> [--check]
// Prints one JSON line: autocannon's totals. --check: one tampered request must answer 403 (and nothing else).
import autocannon from "autocannon";
import { getExpectedTwilioSignature } from "twilio/lib/webhooks/webhooks.js";
import { printTotals } from "../lib/baseline.mjs";

const [base, seconds, connections, first, count, authToken, publicUrl] = process.argv.slice(2);

const PATH = "/api/webhooks/twilio/status";
const ACCOUNT = "AC0123456789abcdef0123456789abcdef";

/** Message sid of delivery i (1-based), as both sides seeded it. */
const sidOf = (i) => `SM${i.toString(16).padStart(32, "0")}`;

function signed(i, status, tamper = false) {
  const params = { AccountSid: ACCOUNT, ApiVersion: "2010-04-01", From: "+15005550006", MessageSid: sidOf(i), MessageStatus: status, SmsSid: sidOf(i), SmsStatus: status, To: "+14155550100" };
  const path = `${PATH}?delivery=${i}`;
  const signature = getExpectedTwilioSignature(authToken, publicUrl + path, params);
  if (tamper) params.MessageStatus = "failed";
  return { path, body: new URLSearchParams(params).toString(), signature };
}

const headers = { "content-type": "application/x-www-form-urlencoded", "user-agent": "TwilioProxy/1.1" };

if (process.argv.includes("--check")) {
  const bad = signed(1, "delivered", true);
  const res = await fetch(base + bad.path, { method: "POST", headers: { ...headers, "x-twilio-signature": bad.signature }, body: bad.body });
  process.stdout.write(`${JSON.stringify({ status: res.status })}\n`);
  process.exit(0);
}

const start = Number(first);
const n = Number(count);
const list = [];
for (let k = 0; k < n; k++) {
  const i = start + k;
  list.push(signed(i, "sent"), signed(i, "delivered"));
}
let next = 0;

const result = await autocannon({
  url: base,
  method: "POST",
  connections: Number(connections ?? 50),
  duration: Number(seconds ?? 10),
  headers,
  requests: [
    {
      setupRequest: (req) => {
        const r = list[next++ % list.length];
        return { ...req, path: r.path, body: r.body, headers: { ...req.headers, ...headers, "x-twilio-signature": r.signature } };
      },
    },
  ],
});
printTotals(result, { used: next, wrapped: next > list.length });
