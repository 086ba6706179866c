// The first-run screen's form (POST /api/setup): the first admin's account, the setup code `nearcast serve` printed,
// and the public URL the screen was opened at (the admin may change it; empty saves none). The server checks the code
// itself (a 403, before anything else: services/setup-code.ts) and the URL like the publicUrl setting.
import * as v from "valibot";
import { NOT_AN_OBJECT, registerSchema } from "./auth.ts";
import { SETTING_SCHEMAS } from "./settings.ts";

export const SETUP_CODE_REQUIRED = "Setup code is required";

export const setupSchema = v.object(
  {
    ...registerSchema.entries,
    code: v.pipe(v.string(SETUP_CODE_REQUIRED), v.trim(), v.nonEmpty(SETUP_CODE_REQUIRED), v.maxLength(200, "This setup code is not valid")),
    publicUrl: v.pipe(
      v.string(),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        if (dataset.value.trim() === "") return "";
        const checked = v.safeParse(SETTING_SCHEMAS.publicUrl, dataset.value);
        if (checked.success) return checked.output;
        addIssue({ message: checked.issues[0].message });
        return NEVER;
      }),
    ),
  },
  NOT_AN_OBJECT,
);

export type SetupBody = v.InferOutput<typeof setupSchema>;
