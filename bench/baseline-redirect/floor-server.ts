// The floor of bench/redirect.ts: Bun.serve answering every request with the same 302 and doing nothing else (no
// lookup, no database). What this load generator can drive on this machine at most: no server can show more.
//   bun floor-server.ts <port>
export {};

const server = Bun.serve({
  port: Number(process.argv[2] ?? 0),
  hostname: "127.0.0.1",
  fetch() {
    return new Response(null, { status: 302, headers: { location: "https://shop.example.com/autumn?utm_source=sms", "cache-control": "no-store" } });
  },
});
process.stderr.write(`listening on http://127.0.0.1:${server.port}\n`);
process.once("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
