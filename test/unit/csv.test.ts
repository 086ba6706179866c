import { expect, test } from "bun:test";
import { csvCell, toCsv } from "../../src/lib/csv.ts";

test("plain cells as they are; null and undefined empty; numbers as digits", () => {
  expect([csvCell("abc"), csvCell(null), csvCell(undefined), csvCell(42)]).toEqual(["abc", "", "", "42"]);
});

test("commas, quotes, line breaks and edge spaces are quoted, quotes doubled", () => {
  expect(csvCell("a,b")).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
  expect(csvCell("cr\r\nlf")).toBe('"cr\r\nlf"');
  expect(csvCell(" padded ")).toBe('" padded "');
});

test("formula-looking text gets a leading apostrophe (= + - @, tab, CR), quoted when it must be", () => {
  expect(csvCell("=HYPERLINK(\"http://x\")")).toBe('"\'=HYPERLINK(""http://x"")"');
  expect(csvCell("+14155550100")).toBe("'+14155550100");
  expect(csvCell("-2+3")).toBe("'-2+3");
  expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
  expect(csvCell("\tx")).toBe("'\tx");
  expect(csvCell(-5)).toBe("-5");
});

test("toCsv: header first, CRLF between records and after the last", () => {
  expect(toCsv(["a", "b"], [["1", null], ["x,y", "z"]])).toBe('a,b\r\n1,\r\n"x,y",z\r\n');
});
