// Poster PDF benchmark: median render time and file size of the QR poster, in-process, against two baselines run
// in the same process on the same machine:
//   - "QR as PNG image": the same poster with the QR placed as a 600 px PNG instead of vector rectangles;
//   - "pdfkit minimal": pdfkit's own one-page document (one line of text in its built-in Helvetica).
// Start-up (first render: importing pdfkit and qrcode, parsing the TTF) is reported on its own and left out of the
// medians. Targets: <= 10 ms and <= 10 KB median per poster.
//
//   npx bun bench/poster.ts            (N = 200 renders per case)
//   npx bun bench/poster.ts --n 50 --json
import { renderPoster } from "../src/services/posters.ts";
import { renderQrPng } from "../src/services/qr-codes.ts";

const args = process.argv.slice(2);
const nIndex = args.indexOf("--n");
const N = nIndex >= 0 ? Number(args[nIndex + 1]) : 200;
const JSON_OUT = args.includes("--json");
const ROUNDS = 5;
const TARGET_MS = 10;
const TARGET_BYTES = 10 * 1024;

const data = {
  business: {
    id: 42,
    name: "Sunrise Bakery & Cafe",
    businessType: { id: 3, name: "Pizza Restaurant" },
    qrMessage: "Scan this QR code to get notified of promotions, offers and deals!",
  },
  url: "https://deals.example.com/subscribe?id=42",
};

interface Result {
  name: string;
  medianMs: number;
  p90Ms: number;
  bytes: number;
}

function median(sorted: number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Case {
  name: string;
  render: () => Promise<Uint8Array>;
  times: number[];
  sizes: number[];
}

/**
 * Runs the cases interleaved, in ROUNDS batches each (with a GC in between), so a noisy neighbour on a shared
 * machine slows every case alike and the ratios stay fair.
 */
async function measureAll(cases: Case[]): Promise<Result[]> {
  for (const c of cases) await c.render(); // warm each case's own code paths and caches
  const perBatch = Math.max(1, Math.round(N / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      Bun.gc(true);
      for (let i = 0; i < perBatch; i++) {
        const start = performance.now();
        const pdf = await c.render();
        c.times.push(performance.now() - start);
        c.sizes.push(pdf.byteLength);
      }
    }
  }
  return cases.map((c) => {
    const times = [...c.times].sort((a, b) => a - b);
    const sizes = [...c.sizes].sort((a, b) => a - b);
    return { name: c.name, medianMs: median(times), p90Ms: times[Math.floor(times.length * 0.9)]!, bytes: median(sizes) };
  });
}

async function pdfkitMinimal(): Promise<Uint8Array> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ size: "LETTER" });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => doc.on("end", resolve));
  doc.fontSize(24).text("Sunrise Bakery & Cafe", 72, 72);
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

const startupStart = performance.now();
const first = await renderPoster(data);
const startupMs = performance.now() - startupStart;

const logo = await renderQrPng("logo stand-in", 160);
const kase = (name: string, render: () => Promise<Uint8Array>): Case => ({ name, render, times: [], sizes: [] });
const results = await measureAll([
  kase("poster, vector QR (nearcast)", () => renderPoster(data)),
  kase("baseline: same poster, QR as PNG image", () => renderPoster(data, { qr: "png" })),
  kase("baseline: pdfkit minimal one-page doc", pdfkitMinimal),
  kase("poster, vector QR + 160 px PNG logo", () => renderPoster({ ...data, logo })),
]);
const [ours, png, minimal] = results as [Result, Result, Result, Result];

if (JSON_OUT) {
  console.log(JSON.stringify({ n: N, startupMs, firstBytes: first.byteLength, results }, null, 2));
} else {
  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(`Poster PDF benchmark: ${N} renders per case in ${ROUNDS} interleaved rounds, Bun ${Bun.version}, ${process.platform}/${process.arch}`);
  console.log(`start-up (first render: imports + font parse): ${startupMs.toFixed(1)} ms\n`);
  console.log(`${pad("case", 42)} ${"median".padStart(9)} ${"p90".padStart(9)} ${"size".padStart(10)}`);
  for (const r of results) {
    console.log(`${pad(r.name, 42)} ${`${r.medianMs.toFixed(2)} ms`.padStart(9)} ${`${r.p90Ms.toFixed(2)} ms`.padStart(9)} ${`${(r.bytes / 1024).toFixed(2)} KB`.padStart(10)}`);
  }
  console.log("");
  console.log(`vector vs PNG-QR poster: time x${(ours.medianMs / png.medianMs).toFixed(2)}, size x${(ours.bytes / png.bytes).toFixed(2)}`);
  console.log(`vector vs pdfkit minimal: time x${(ours.medianMs / minimal.medianMs).toFixed(2)}, size x${(ours.bytes / minimal.bytes).toFixed(2)}`);
  const ok = (b: boolean) => (b ? "met" : "MISSED");
  console.log(`targets: time <= ${TARGET_MS} ms ${ok(ours.medianMs <= TARGET_MS)}; size <= 10 KB ${ok(ours.bytes <= TARGET_BYTES)}`);
}
