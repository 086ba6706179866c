import { readFileSync } from "node:fs";
import net from "node:net";

// A sender that keeps streaming a chunked body whatever the server answers (what a hostile or broken client does),
// for the body-limit smoke test and bench. Raw sockets, because fetch stops sending once the answer arrives and so
// never shows whether the server keeps reading (and buffering) the rest.

export interface FloodResult {
  /** The status line's code, or 0 when the server closed the connection without answering. */
  status: number;
  /** The answer's body (the one error shape for a 413). */
  body: string;
  /** Whether the server closed the connection before the whole body was sent. */
  cutOff: boolean;
  /** Bytes of body this client managed to hand to the socket. */
  sent: number;
}

export interface FloodOptions {
  headers?: Record<string, string>;
  /** Total body size (default 30 MB). */
  total?: number;
  /** Pause after each MB, to stream at a realistic pace rather than as fast as loopback allows (default 2 ms). */
  pauseMsPerMb?: number;
}

const CHUNK = 64 * 1024;

/** POSTs one chunked body of `total` bytes ('a's) to `path` on `port`; resolves when the server closes or answers and
 * the body is done. */
export function floodOne(port: number, path: string, options: FloodOptions = {}): Promise<FloodResult> {
  const total = options.total ?? 30 * 1024 * 1024;
  const pause = options.pauseMsPerMb ?? 2;
  const frame = Buffer.concat([Buffer.from(`${CHUNK.toString(16)}\r\n`), Buffer.alloc(CHUNK, 0x61), Buffer.from("\r\n")]);
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let sent = 0;
    let response = "";
    let closed = false;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      const [head = "", body = ""] = response.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, body: /transfer-encoding: chunked/i.test(head) ? unchunk(body) : body, cutOff: sent < total, sent });
    };
    socket.on("data", (d) => {
      response += d.toString("latin1");
    });
    let wake: (() => void) | null = null;
    socket.on("error", () => undefined);
    socket.on("drain", () => wake?.());
    socket.on("close", () => {
      closed = true;
      wake?.();
      done();
    });
    const head = Object.entries({ host: "127.0.0.1", "transfer-encoding": "chunked", ...options.headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    const pump = async () => {
      while (!closed && sent < total) {
        sent += CHUNK;
        const flushed = socket.write(frame);
        if (sent % (1024 * 1024) === 0 && pause > 0) await Bun.sleep(pause);
        if (!flushed && !closed) await new Promise<void>((r) => (wake = r));
      }
      if (closed) return;
      socket.write("0\r\n\r\n");
      // The whole body went through: give the answer a moment, then hang up ourselves.
      setTimeout(() => socket.destroy(), 2000);
    };
    void pump();
  });
}

function unchunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const line = rest.indexOf("\r\n");
    if (line < 0) return out;
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/** Resident memory of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Samples a process's RSS every `everyMs` until stop(); returns the peak. */
export function sampleRss(pid: number, everyMs = 25) {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the process is gone
    }
  }, everyMs);
  return {
    peak: () => peak,
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
