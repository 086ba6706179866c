import { useMemo } from "react";
import { DEFAULT_DEAL_TEXT, DEFAULT_QR_MESSAGE, UNSUBSCRIBE_NOTE } from "../../../../src/schemas/poster-text.ts";

const SIZE = 25;

function isFinder(x: number, y: number): boolean {
  const inBox = (bx: number, by: number) => x >= bx && x < bx + 7 && y >= by && y < by + 7;
  return inBox(0, 0) || inBox(SIZE - 7, 0) || inBox(0, SIZE - 7);
}

function finderCell(x: number, y: number): boolean {
  const lx = x >= SIZE - 7 ? x - (SIZE - 7) : x;
  const ly = y >= SIZE - 7 ? y - (SIZE - 7) : y;
  const ring = Math.max(Math.abs(lx - 3), Math.abs(ly - 3));
  return ring !== 2;
}

/** A QR-looking pattern (decorative, deterministic, not a real code). */
function qrPath(): string {
  let seed = 20240611;
  const rand = () => {
    // xorshift32: 32-bit integer maths only, so every engine draws the same pattern.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  let d = "";
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const quietAroundFinder = (x === 7 && (y < 8 || y >= SIZE - 8)) || (y === 7 && (x < 8 || x >= SIZE - 8)) ||
        (x === SIZE - 8 && y < 8) || (y === SIZE - 8 && x < 8);
      const on = isFinder(x, y) ? finderCell(x, y) : !quietAroundFinder && rand() < 0.48;
      if (on) d += `M${x} ${y}h1v1h-1z`;
    }
  }
  return d;
}

function FakeQr() {
  const d = useMemo(qrPath, []);
  return (
    <svg className="poster-qr" viewBox={`-2 -2 ${SIZE + 4} ${SIZE + 4}`} aria-hidden="true" focusable="false">
      <rect x="-2" y="-2" width={SIZE + 4} height={SIZE + 4} fill="#fff" />
      <path d={d} fill="#0f172a" shapeRendering="crispEdges" />
    </svg>
  );
}

/** The printed counter poster a business puts up: logo, QR code, the QR message and the unsubscribe note. */
export function PosterMockup() {
  return (
    <figure className="poster" aria-label="Sample QR code poster from Sunrise Bakery">
      <div className="poster-top">
        <span className="poster-logo" aria-hidden="true">
          SB
        </span>
        <div>
          <p className="poster-name">Sunrise Bakery</p>
          <p className="poster-type">Bakery &amp; café</p>
        </div>
      </div>
      <p className="poster-headline">Get our deals first!</p>
      <FakeQr />
      <p className="poster-message">{DEFAULT_QR_MESSAGE}</p>
      <p className="poster-deal">{DEFAULT_DEAL_TEXT}</p>
      <p className="poster-note">{UNSUBSCRIBE_NOTE}</p>
    </figure>
  );
}
