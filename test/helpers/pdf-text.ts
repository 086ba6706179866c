// Reads the text back out of a PDF written by pdfkit (Type0 fonts with a ToUnicode map, Flate or plain streams),
// without poppler: enough to check what a poster says.
import { inflateSync } from "node:zlib";

interface PdfObject {
  dict: string;
  stream: Uint8Array | null;
}

const latin1 = new TextDecoder("latin1");

export function pdfObjects(pdf: Uint8Array): Map<number, PdfObject> {
  const text = latin1.decode(pdf);
  const objects = new Map<number, PdfObject>();
  const re = /(\d+) 0 obj\s*([\s\S]*?)endobj/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const body = m[2] ?? "";
    const start = body.indexOf("stream\n");
    if (start < 0) {
      objects.set(Number(m[1]), { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, start);
    const end = body.lastIndexOf("\nendstream");
    const bodyOffset = m.index + m[0].indexOf(body);
    let stream: Uint8Array = pdf.subarray(bodyOffset + start + 7, bodyOffset + end);
    if (/\/FlateDecode/.test(dict)) stream = new Uint8Array(inflateSync(stream));
    objects.set(Number(m[1]), { dict, stream });
  }
  return objects;
}

function parseCmap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const hexText = (h: string) => {
    let s = "";
    for (let i = 0; i + 4 <= h.length; i += 4) s += String.fromCharCode(Number.parseInt(h.slice(i, i + 4), 16));
    return s;
  };
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, uni] of (block[1] ?? "").matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      map.set(Number.parseInt(code!, 16), hexText(uni!));
    }
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, rest] of (block[1] ?? "").matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const from = Number.parseInt(lo!, 16);
      const to = Number.parseInt(hi!, 16);
      if (rest!.startsWith("[")) {
        const items = [...rest!.matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => hexText(x[1]!));
        items.forEach((s, i) => map.set(from + i, s));
      } else {
        const base = Number.parseInt(rest!.slice(1, -1), 16);
        for (let c = from; c <= to; c++) map.set(c, String.fromCharCode(base + c - from));
      }
    }
  }
  return map;
}

/** The text of every page, one line per text-showing operator. */
export function pdfText(pdf: Uint8Array): string {
  const objects = pdfObjects(pdf);
  const fonts = new Map<string, Map<number, string>>();
  const lines: string[] = [];
  for (const obj of objects.values()) {
    if (!/\/Type\s*\/Page\b/.test(obj.dict)) continue;
    // Font resources: /F1 8 0 R inside the page's /Resources (inline or referenced).
    let resources = obj.dict;
    const resRef = /\/Resources\s+(\d+) 0 R/.exec(obj.dict);
    if (resRef) resources = objects.get(Number(resRef[1]))?.dict ?? "";
    for (const [, name, ref] of resources.matchAll(/\/(F\d+)\s+(\d+) 0 R/g)) {
      const font = objects.get(Number(ref));
      const toUnicode = font && /\/ToUnicode\s+(\d+) 0 R/.exec(font.dict);
      const cmap = toUnicode ? objects.get(Number(toUnicode[1]))?.stream : null;
      fonts.set(name!, cmap ? parseCmap(latin1.decode(cmap)) : new Map());
    }
    const contentRefs = [...(/\/Contents\s+(\[[^\]]*\]|\d+ 0 R)/.exec(obj.dict)?.[1] ?? "").matchAll(/(\d+) 0 R/g)];
    for (const [, ref] of contentRefs) {
      const content = latin1.decode(objects.get(Number(ref))?.stream ?? new Uint8Array());
      let cmap = new Map<number, string>();
      for (const [, font, array, single] of content.matchAll(/\/(F\d+)\s+[\d.]+\s+Tf|\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
        if (font) {
          cmap = fonts.get(font) ?? new Map();
          continue;
        }
        const hex = array !== undefined ? [...array.matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1]!).join("") : (single ?? "");
        let line = "";
        for (let i = 0; i + 4 <= hex.length; i += 4) line += cmap.get(Number.parseInt(hex.slice(i, i + 4), 16)) ?? "\uFFFD";
        lines.push(line);
      }
    }
  }
  return lines.join("\n");
}

export function isPdf(bytes: Uint8Array): boolean {
  const head = latin1.decode(bytes.subarray(0, 8));
  const tail = latin1.decode(bytes.subarray(Math.max(0, bytes.length - 16)));
  return head.startsWith("%PDF-") && /%%EOF\s*$/.test(tail);
}
