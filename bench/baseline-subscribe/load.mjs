// The load generator both sides share: autocannon POSTing subscriptions with a fresh phone number each time.
//   node load.mjs <baseUrl> <businessId> <seconds> <connections> <first phone index>
// Prints one JSON line: autocannon's totals.
import autocannon from "autocannon";
import { printTotals } from "../lib/baseline.mjs";

const [base, businessId, seconds, connections, start] = process.argv.slice(2);
const health = await fetch(`${base}/api/health`);
const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get("set-cookie") ?? "")?.[1];
if (!xsrf) throw new Error("no XSRF-TOKEN cookie from /api/health");

let n = Number(start ?? 0);
// Valid US numbers, all different: 415-200-0000, 415-200-0001, ... (the exchange must start with 2-9).
const phone = () => `(415) ${String(2000000 + n++).replace(/^(\d{3})(\d{4})$/, "$1-$2")}`;

const result = await autocannon({
  url: `${base}/api/subscription/Subscribe`,
  method: "POST",
  connections: Number(connections ?? 50),
  duration: Number(seconds ?? 10),
  headers: { "content-type": "application/json", cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf, "user-agent": "autocannon" },
  requests: [
    {
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({ businessId: Number(businessId), phone: phone(), contactPreference: n % 2 ? "SMS" : "WhatsApp", source: "qr" }),
      }),
    },
  ],
});
printTotals(result, { phonesUsed: n - Number(start ?? 0) });
