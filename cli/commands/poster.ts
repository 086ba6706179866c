import { writeFileSync } from "node:fs";
import { fileProblem } from "../file-errors.ts";
import { ValidationError } from "../../src/errors.ts";
import { resolve } from "node:path";
import { Command } from "commander";
import { isPrivateLink } from "../../src/schemas/public-url.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { dataDirOption, examples, parseId, usageExit, withContext } from "../context.ts";

export function posterCommand(): Command {
  return new Command("poster")
    .description("write a business's printable QR poster as a PDF (US Letter)")
    .requiredOption("--business <id>", "business id")
    .option("--out <file>", 'where to write the PDF ("-" for stdout); default nearcast-poster-<name>.pdf')
    .option("--public-url <url>", "base URL the QR code points to (env NEARCAST_PUBLIC_URL)")
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `${examples(
        "nearcast poster --business 3 --out sunrise-poster.pdf",
        "NEARCAST_PUBLIC_URL=https://deals.example.com nearcast poster --business 3 --out poster.pdf",
        "nearcast poster --business 3 --public-url https://deals.example.com --out - | lp",
      )}
The QR code opens <public url>/subscribe?id=<id>: set NEARCAST_PUBLIC_URL (or --public-url) to the address your
customers can reach before printing.
`,
    )
    .action((opts) => {
      const id = parseId(opts.business, "--business");
      const env = opts.publicUrl ? { ...process.env, NEARCAST_PUBLIC_URL: opts.publicUrl } : process.env;
      return withContext(
        opts,
        async (ctx) => {
          const { pdf, fileName, business } = await ctx.services.posters.forUser(OPERATOR, id);
          const url = ctx.services.qrCodes.subscribeUrl(business.id);
          if (opts.out === "-") {
            process.stdout.write(pdf);
          } else {
            const out = resolve(opts.out ?? fileName);
            try {
              writeFileSync(out, pdf);
            } catch (e) {
              throw new ValidationError(`--out: cannot write ${out} (${fileProblem(e)})`);
            }
            process.stdout.write(`Wrote the poster of "${business.name}" (id ${business.id}) to ${out} (${(pdf.byteLength / 1024).toFixed(1)} KB)\n`);
            process.stdout.write(`Its QR code opens ${url}\n`);
          }
          const publicUrl = ctx.services.settings.publicUrl();
          if (isPrivateLink(publicUrl)) {
            process.stderr.write(
              `nearcast: warning: the QR code points to ${publicUrl}, which phones outside this network cannot open; set the public URL with \`nearcast settings set publicUrl https://...\`, NEARCAST_PUBLIC_URL or --public-url\n`,
            );
          }
          if (!business.isActive) {
            process.stderr.write("nearcast: warning: this business is inactive, so its subscribe page is not public yet\n");
          }
        },
        { env },
      );
    });
}
