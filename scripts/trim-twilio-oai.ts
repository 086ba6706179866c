// Vendors the part of Twilio's OpenAPI definitions (twilio/twilio-oai, MIT) that the contract test checks requests
// against: the paths Nearcast calls, every method of each, their parameters and request bodies, and the component
// schemas those reference (enums). Responses and descriptions are dropped (1.9 MB -> a few KB); nothing else changes.
//   bun scripts/trim-twilio-oai.ts [source dir, default ../shared/twilio-oai]
// Writes test/fixtures/twilio-oai/twilio-oai-nearcast.json. Re-run it after updating the source, then run the tests.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const source = process.argv[2] ?? join(root, "..", "shared", "twilio-oai");
const outDir = join(root, "test", "fixtures", "twilio-oai");

/** Per definition file: the paths Nearcast's adapter (src/messaging/twilio*.ts, content-templates.ts) calls. */
const KEEP: Record<string, string[]> = {
  "twilio_api_v2010.json": [
    "/2010-04-01/Accounts/{Sid}.json",
    "/2010-04-01/Accounts/{AccountSid}/Messages.json",
    "/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json",
  ],
  "twilio_content_v1.json": ["/v1/Content", "/v1/Content/{Sid}", "/v1/Content/{Sid}/ApprovalRequests"],
};
const METHODS = ["get", "post", "delete"] as const;

type Json = Record<string, unknown>;

/** Drops `description` and `examples` keys everywhere (prose and samples; the contract is the rest). */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "description" && k !== "examples").map(([k, v]) => [k, strip(v)]));
}

function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  const text = JSON.stringify(value);
  for (const m of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) found.add(m[1]!);
  return found;
}

const out: { source: string; files: Record<string, { servers: unknown; paths: Json; schemas: Json }> } = {
  source: "twilio/twilio-oai spec/json (see README.md)",
  files: {},
};
for (const [file, paths] of Object.entries(KEEP)) {
  const spec = JSON.parse(readFileSync(join(source, file), "utf8")) as { servers: unknown; paths: Record<string, Json>; components: { schemas: Json } };
  const kept: Json = {};
  for (const path of paths) {
    const item = spec.paths[path];
    if (!item) throw new Error(`${file}: no path ${path}`);
    const ops: Json = {};
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (op) ops[method] = strip({ operationId: op.operationId, parameters: op.parameters ?? [], requestBody: op.requestBody });
    }
    kept[path] = ops;
  }
  const schemas: Json = {};
  for (const name of refsIn(kept)) schemas[name] = strip(spec.components.schemas[name]);
  out.files[file] = { servers: spec.servers, paths: kept, schemas };
}
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "twilio-oai-nearcast.json"), `${JSON.stringify(out, null, 1)}\n`);
copyFileSync(join(source, "LICENSE"), join(outDir, "LICENSE"));
console.log(`wrote ${join(outDir, "twilio-oai-nearcast.json")}`);
