import { randomInt } from "node:crypto";

/** `length` characters drawn uniformly from `alphabet` by the crypto generator: short codes nobody can guess. */
export function randomCode(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}
