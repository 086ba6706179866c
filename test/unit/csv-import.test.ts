import { describe, expect, test } from "bun:test";
import { parseCsv, readImportFile } from "../../src/lib/csv-import.ts";
import { ValidationError } from "../../src/errors.ts";

// A file with a quote anywhere takes the character loop; one without takes the split. Each text below is parsed
// both ways (a quoted cell added at the end of its copy), and the records before that cell must agree.
const withQuote = (text: string) => `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}"q"\n`;
const bothWays = (text: string) => {
  const quick = parseCsv(text);
  const loop = parseCsv(withQuote(text));
  expect(loop.at(-1)!.cells).toEqual(["q"]);
  expect(quick).toEqual(loop.slice(0, -1));
  return quick;
};

describe("parseCsv", () => {
  test("records with the line each starts on; CRLF, CR and LF ends; blank lines skipped", () => {
    expect(bothWays("phone,contactPreference\r\n+14155550100,SMS\r\n\r\n+14155550101,WhatsApp\n")).toEqual([
      { line: 1, cells: ["phone", "contactPreference"] },
      { line: 2, cells: ["+14155550100", "SMS"] },
      { line: 4, cells: ["+14155550101", "WhatsApp"] },
    ]);
    expect(bothWays("a,b\rc,d")).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["c", "d"] },
    ]);
  });

  test("a line of only commas is a record of empty cells, a line of spaces is not", () => {
    expect(bothWays("a,b\n,\n   \nc,d\n")).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["", ""] },
      { line: 4, cells: ["c", "d"] },
    ]);
  });

  test("nothing, or a byte-order mark alone, has no records", () => {
    expect(bothWays("")).toEqual([]);
    expect(parseCsv("\uFEFF")).toEqual([]);
    expect(parseCsv("\uFEFFphone,contactPreference\n")).toEqual([{ line: 1, cells: ["phone", "contactPreference"] }]);
  });

  test("quoted cells hold commas, doubled quotes and line breaks; the next record's line counts them", () => {
    expect(parseCsv('phone,note\n"+1 415, 555 0100","said ""hi""\nand left"\n+14155550101,x\n')).toEqual([
      { line: 1, cells: ["phone", "note"] },
      { line: 2, cells: ["+1 415, 555 0100", 'said "hi"\nand left'] },
      { line: 4, cells: ["+14155550101", "x"] },
    ]);
  });
});

describe("readImportFile", () => {
  test("rows by the header's columns, in any order and case, the preference spelled as the API wants it", () => {
    expect(readImportFile("ContactPreference , Phone\nsms,+14155550100\nwhats app,+14155550101\nFax,+14155550102\n", "c.csv")).toEqual([
      { line: 2, phone: "+14155550100", contactPreference: "SMS" },
      { line: 3, phone: "+14155550101", contactPreference: "WhatsApp" },
      { line: 4, phone: "+14155550102", contactPreference: "Fax" },
    ]);
  });

  test("a missing cell is empty, for validation to report with its line", () => {
    expect(readImportFile("phone,contactPreference\n+14155550100\n", "c.csv")).toEqual([{ line: 2, phone: "+14155550100", contactPreference: "" }]);
  });

  test("a first line that does not name both columns is refused, naming the file", () => {
    expect(() => readImportFile("number,channel\n+14155550100,SMS\n", "shop.csv")).toThrow(ValidationError);
    expect(() => readImportFile("", "shop.csv")).toThrow('shop.csv: the first line must be the header "phone,contactPreference"');
  });
});
