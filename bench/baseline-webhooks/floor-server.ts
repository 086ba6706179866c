// The floor of bench/webhooks.ts: Bun.serve reading the body and answering 200, nothing else (no parsing, no
// signature, no database). What this load generator can drive on this machine at most: no server can show more.
//   bun floor-server.ts <port>
const server = Bun.serve({
  port: Number(process.argv[2] ?? 0),
  hostname: "127.0.0.1",
  async fetch(req) {
    await req.arrayBuffer();
    return new Response(null, { status: 200 });
  },
});
process.stderr.write(`listening on http://127.0.0.1:${server.port}\n`);
process.once("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
