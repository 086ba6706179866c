// The fake Twilio (test/helpers/fake-twilio.ts) in a process of its own, for bench/broadcast.ts: the load it serves
// must not share a CPU thread with the code being measured. Prints {url, accountSid, authToken} as one JSON line,
// then serves until killed. What it records is dropped every 200 ms so its memory stays flat; the number of messages
// created so far is answered on GET /count.
import { startFakeTwilio } from "../test/helpers/fake-twilio.ts";

const fake = startFakeTwilio();
let created = 0;
const prune = () => {
  created += fake.messages.size;
  fake.messages.clear();
  fake.requests.length = 0;
};
setInterval(prune, 200);
const counter = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => {
    prune();
    return Response.json({ created });
  },
});
process.stdout.write(`${JSON.stringify({ url: fake.url, accountSid: fake.accountSid, authToken: fake.authToken, countUrl: `http://127.0.0.1:${counter.port}/count` })}\n`);
