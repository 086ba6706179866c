// Checks one HTTP request against Twilio's own OpenAPI definitions (test/fixtures/twilio-oai, trimmed from
// twilio/twilio-oai by scripts/trim-twilio-oai.ts): the method and path template, the names of the query and form
// parameters, the required ones, and each value's type and format (E.164 phone numbers, absolute http(s) URIs, sid
// patterns, enums, integers in range). The fake Twilio runs it on every request it receives, so the adapter and the
// fake cannot drift from the real API together: a request the real API would not understand fails the test.
//
// A few limits Twilio documents but its definitions leave out are added below (DOCUMENTED), each with its source.
import spec from "../fixtures/twilio-oai/twilio-oai-nearcast.json" with { type: "json" };

export interface ContractRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Form fields of the body; a repeated key is an array. */
  form: Record<string, string | string[]>;
  contentType: string | null;
}

/** One way a request breaks the contract, with the answer Twilio gives such a request. */
export interface ContractProblem {
  problem: string;
  status: number;
  code: number;
  message: string;
}

interface Schema {
  type?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  items?: Schema;
  $ref?: string;
}
interface Parameter {
  name: string;
  in: string;
  schema: Schema;
  required?: boolean;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, Schema>; required?: string[] } }> };
}
interface Route {
  template: string;
  regex: RegExp;
  names: string[];
  ops: Record<string, Operation>;
  schemas: Record<string, Schema>;
}

const FORM = "application/x-www-form-urlencoded";

/** Limits from Twilio's docs, not in its definitions. */
const DOCUMENTED: Record<string, Schema> = {
  // https://www.twilio.com/docs/api/errors/21624 : "integers between 1 and 36,000 seconds".
  ValidityPeriod: { type: "integer", minimum: 1, maximum: 36000 },
  // https://www.twilio.com/docs/api/errors/21617 : the concatenated body may not exceed 1,600 characters.
  Body: { type: "string", maxLength: 1600 },
};

/** The error code Twilio answers a bad value of this parameter with (else 20001, an invalid parameter). */
const CODE_BY_PARAMETER: Record<string, [number, string]> = {
  To: [21211, "Invalid 'To' Phone Number"],
  From: [21212, "Invalid 'From' Phone Number"],
  StatusCallback: [21609, "Invalid 'StatusCallback'"],
  MediaUrl: [21620, "Invalid media URL(s)"],
  ValidityPeriod: [21624, "Invalid validity period value"],
  Body: [21617, "The concatenated message body exceeds the 1600 character limit"],
  ContentSid: [21655, "The ContentSid is Invalid."],
};

const routes: Route[] = Object.values(spec.files as unknown as Record<string, { paths: Record<string, Record<string, Operation>>; schemas: Record<string, Schema> }>).flatMap(
  (file) =>
    Object.entries(file.paths).map(([template, ops]) => {
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const source = template.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "([^/]+)");
      return { template, regex: new RegExp(`^${source}$`), names, ops, schemas: file.schemas };
    }),
);

const PHONE = /^(whatsapp:)?\+[1-9]\d{1,14}$/;

/** Why `value` does not fit `schema` (null when it does). Form and query values are always strings on the wire. */
function misfit(value: string, schema: Schema, schemas: Record<string, Schema>): string | null {
  const s = schema.$ref ? schemas[schema.$ref.replace("#/components/schemas/", "")] : schema;
  if (!s) return `no schema ${schema.$ref}`;
  if (s.enum && !s.enum.includes(value)) return `not one of ${s.enum.join(", ")}`;
  if (s.type === "integer" || s.type === "number") {
    const ok = s.type === "integer" ? /^-?\d+$/.test(value) : value.trim() !== "" && Number.isFinite(Number(value));
    if (!ok) return `not ${s.type === "integer" ? "an integer" : "a number"}`;
    const n = Number(value);
    if (s.minimum !== undefined && n < s.minimum) return `below ${s.minimum}`;
    if (s.maximum !== undefined && n > s.maximum) return `above ${s.maximum}`;
    return null;
  }
  if (s.type === "boolean") return /^(true|false)$/i.test(value) ? null : "not true or false";
  if (s.minLength !== undefined && value.length < s.minLength) return `shorter than ${s.minLength}`;
  if (s.maxLength !== undefined && value.length > s.maxLength) return `longer than ${s.maxLength}`;
  if (s.pattern && !new RegExp(s.pattern).test(value)) return `does not match ${s.pattern}`;
  if (s.format === "phone-number" && !PHONE.test(value)) return "not an E.164 phone number (optionally whatsapp:)";
  if (s.format === "uri") {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {}
    if (!url || !/^https?:$/.test(url.protocol) || !url.hostname) return "not an absolute http(s) URL";
  }
  if (s.format === "date-time" && Number.isNaN(Date.parse(value)) && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return "not a date";
  return null;
}

function problem(name: string, detail: string): ContractProblem {
  const [code, message] = CODE_BY_PARAMETER[name] ?? [20001, `Invalid parameter: ${name}`];
  return { problem: `${name}: ${detail}`, status: 400, code, message };
}

/** Checks a set of named values (query or form) against the declared parameters. */
function checkValues(
  values: Record<string, string | string[]>,
  declared: Record<string, Schema>,
  required: string[],
  where: string,
  schemas: Record<string, Schema>,
): ContractProblem[] {
  const found: ContractProblem[] = [];
  for (const name of required) if (values[name] === undefined) found.push(problem(name, `required in the ${where}, missing`));
  for (const [name, raw] of Object.entries(values)) {
    const schema = declared[name];
    if (!schema) {
      found.push(problem(name, `not a parameter of this operation's ${where}`));
      continue;
    }
    const list = Array.isArray(raw) ? raw : [raw];
    const isArray = schema.type === "array";
    if (list.length > 1 && !isArray) found.push(problem(name, "repeated, but not a list"));
    for (const value of list) {
      const why = misfit(value, isArray ? (schema.items ?? {}) : schema, schemas) ?? (DOCUMENTED[name] ? misfit(value, DOCUMENTED[name]!, schemas) : null);
      if (why) found.push(problem(name, `${JSON.stringify(value.slice(0, 60))} ${why}`));
    }
  }
  return found;
}

/** Every way `req` breaks Twilio's definitions; empty when the real API would accept its shape. */
export function checkTwilioRequest(req: ContractRequest): ContractProblem[] {
  const route = routes.find((r) => r.regex.test(req.path));
  if (!route) return [{ problem: `no such path in Twilio's API: ${req.path}`, status: 404, code: 20404, message: `The requested resource ${req.path} was not found` }];
  const op = route.ops[req.method.toLowerCase()];
  if (!op) return [{ problem: `${req.method} is not an operation of ${route.template}`, status: 405, code: 20004, message: "Method not allowed" }];
  const found: ContractProblem[] = [];
  const match = route.regex.exec(req.path)!;
  const params = Object.fromEntries(op.parameters.map((p) => [`${p.in}:${p.name}`, p]));
  route.names.forEach((name, i) => {
    const p = params[`path:${name}`];
    const why = p ? misfit(decodeURIComponent(match[i + 1]!), p.schema, route.schemas) : "not declared";
    if (why) found.push({ problem: `path ${name}: ${JSON.stringify(match[i + 1])} ${why}`, status: 404, code: 20404, message: `The requested resource ${req.path} was not found` });
  });
  const query = op.parameters.filter((p) => p.in === "query");
  found.push(...checkValues(req.query, Object.fromEntries(query.map((p) => [p.name, p.schema])), query.filter((p) => p.required).map((p) => p.name), "query", route.schemas));
  const body = op.requestBody?.content[FORM]?.schema;
  const hasForm = Object.keys(req.form).length > 0;
  if (body && !(req.contentType ?? "").toLowerCase().startsWith(FORM)) {
    found.push({ problem: `Content-Type ${req.contentType} is not ${FORM}`, status: 400, code: 20001, message: `Content-Type must be ${FORM}` });
  } else if (body) {
    found.push(...checkValues(req.form, body.properties ?? {}, body.required ?? [], "form body", route.schemas));
  } else if (hasForm) {
    found.push({ problem: `${req.method} ${route.template} takes no form body (got ${Object.keys(req.form).join(", ")})`, status: 400, code: 20001, message: "Invalid parameter" });
  }
  return found;
}

/** "POST /2010-04-01/Accounts/AC…/Messages.json: To: "555" not an E.164 phone number" lines, for a failing test. */
export function describeProblems(req: Pick<ContractRequest, "method" | "path">, problems: ContractProblem[]): string[] {
  return problems.map((p) => `${req.method} ${req.path}: ${p.problem}`);
}
