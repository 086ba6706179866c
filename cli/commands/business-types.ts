import { Command } from "commander";
import { ValidationError } from "../../src/errors.ts";
import type { BusinessType } from "../../src/schemas/business-types.ts";
import { dataDirOption, examples, parseId, printJson, printTable, usageExit, withContext } from "../context.ts";

function parseActive(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (["true", "yes", "1", "active"].includes(value)) return true;
  if (["false", "no", "0", "inactive"].includes(value)) return false;
  throw new ValidationError(`--active must be true or false (got "${raw}")`);
}

/** One line of a table cell: the first line of the text, cut to `max` characters. */
function cell(text: string, max = 48): string {
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length > max || line !== text ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

function show(type: BusinessType, json: boolean, verb: string): void {
  if (json) printJson(type);
  else process.stdout.write(`${verb} business type ${type.id}: ${type.name}${type.isActive ? "" : " (inactive)"}\n`);
}

export function businessTypesCommand(): Command {
  const cmd = new Command("business-types")
    .description("manage business types (admin)")
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      examples(
        "nearcast business-types list",
        'nearcast business-types add --name Bakery --description "Bread, cakes and pastries"',
        "nearcast business-types update 3 --active false",
        "nearcast business-types remove 3",
      ),
    );

  cmd
    .command("list")
    .description("list business types")
    .option("--json", "print as JSON", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast business-types list", "nearcast business-types list --json"))
    .action((opts) => {
      return withContext(opts, (ctx) => {
        const list = ctx.services.businessTypes.list();
        if (opts.json) printJson(list);
        else
          printTable(
            list.map((t) => ({
              ...t,
              status: t.isActive ? "active" : "inactive",
              description: cell(t.description),
              createdAt: t.createdAt.slice(0, 10),
            })),
            ["id", "name", "status", "description", "createdAt"],
          );
      });
    });

  cmd
    .command("add")
    .description("add a business type")
    .requiredOption("--name <name>", "2 to 100 characters")
    .option("--description <text>", "up to 500 characters", "")
    .option("--active <bool>", "true or false", "true")
    .option("--json", "print the new type as JSON", false)
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples(
        'nearcast business-types add --name "Hair Salon" --description "Cuts and colour"',
        "nearcast business-types add --name Florist --active false --json",
      ),
    )
    .action((opts) => {
      const isActive = parseActive(opts.active);
      return withContext(opts, (ctx) => {
        const type = ctx.services.businessTypes.create({ name: opts.name, description: opts.description, isActive });
        show(type, opts.json, "Added");
      });
    });

  cmd
    .command("update")
    .description("change a business type; options left out keep their value")
    .argument("<id>", "business type id")
    .option("--name <name>", "2 to 100 characters")
    .option("--description <text>", 'up to 500 characters ("" clears it)')
    .option("--active <bool>", "true or false")
    .option("--json", "print the updated type as JSON", false)
    .addOption(dataDirOption())
    .addHelpText(
      "after",
      examples("nearcast business-types update 2 --name Bakery --active true", 'nearcast business-types update 2 --description ""'),
    )
    .action((rawId: string, opts) => {
      const id = parseId(rawId);
      const isActive = parseActive(opts.active);
      return withContext(opts, (ctx) => {
        const current = ctx.services.businessTypes.get(id);
        const type = ctx.services.businessTypes.update(id, {
          name: opts.name ?? current.name,
          description: opts.description ?? current.description,
          isActive: isActive ?? current.isActive,
        });
        show(type, opts.json, "Updated");
      });
    });

  cmd
    .command("remove")
    .description("delete a business type that no business uses")
    .argument("<id>", "business type id")
    .option("--json", "print the removed type as JSON", false)
    .addOption(dataDirOption())
    .addHelpText("after", examples("nearcast business-types remove 4", "nearcast business-types remove 4 --json"))
    .action((rawId: string, opts) => {
      const id = parseId(rawId);
      return withContext(opts, (ctx) => {
        const type = ctx.services.businessTypes.remove(id);
        show(type, opts.json, "Removed");
      });
    });

  return cmd;
}
