import { existsSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command } from "commander";
import { ValidationError } from "../../src/errors.ts";
import { examples, usageExit } from "../context.ts";
import { fileProblem } from "../file-errors.ts";
import { serviceEnvFile } from "../../src/service-env.ts";
import { ensureServiceEnvFile } from "../service-env-file.ts";
import { SERVICE_DEFAULTS, serviceUnit } from "../service-unit.ts";

const UNIT_PATH = "/etc/systemd/system/nearcast.service";

/** The commands that set the service up: printed, or run with --yes. */
function setupSteps(user: string, dataDir: string, envFile: string): string[][] {
  return [
    ["useradd", "--system", "--home-dir", dataDir, "--no-create-home", "--shell", "/usr/sbin/nologin", user],
    ["install", "-d", "-m", "0700", "-o", user, "-g", user, dataDir],
    ["install", "-d", "-m", "0755", dirname(envFile)],
    ["systemctl", "daemon-reload"],
    ["systemctl", "enable", "--now", "nearcast"],
  ];
}

const userExists = (user: string) => Bun.spawnSync(["id", "-u", user], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;

export function installServiceCommand(): Command {
  return new Command("install-service")
    .description("write the systemd unit that runs `nearcast serve` at boot; --yes also creates its user and starts it")
    .option("--user <name>", "system user the service runs as", SERVICE_DEFAULTS.user)
    .option("--data-dir <dir>", "data dir of the service", SERVICE_DEFAULTS.dataDir)
    .option("--out <file>", "where to write the unit", UNIT_PATH)
    .option("--yes", "also create the user and the data dir, and enable and start the service", false)
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `\nWithout --yes nothing but the unit file and the env file is written: the commands that would follow are printed.\n` +
        `Settings go in ${SERVICE_DEFAULTS.envFile} (NEARCAST_PUBLIC_URL=..., one per line; NEARCAST_ENV_FILE names another),\n` +
        `which this command writes 0600 (it holds secrets) with NEARCAST_DATA_DIR, so the other commands find the data dir.\n` +
        examples("sudo nearcast install-service", "sudo nearcast install-service --user shop --data-dir /srv/nearcast --yes", "nearcast install-service --out ./nearcast.service"),
    )
    .action((opts: { user: string; dataDir: string; out: string; yes: boolean }) => {
      if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(opts.user)) throw new ValidationError(`--user must be a system user name such as nearcast (got "${opts.user}")`);
      const dataDir = resolve(opts.dataDir);
      const out = resolve(opts.out);
      const envFile = serviceEnvFile(process.env);
      if (!existsSync(dirname(out))) throw new ValidationError(`--out: the folder ${dirname(out)} does not exist`);
      try {
        writeFileSync(out, serviceUnit({ user: opts.user, dataDir, execPath: process.execPath, envFile }), { mode: 0o644 });
      } catch (e) {
        const denied = (e as NodeJS.ErrnoException).code === "EACCES";
        throw new ValidationError(`--out: cannot write ${out} (${fileProblem(e)}${denied ? ": run it with sudo, or give --out" : ""})`);
      }
      process.stdout.write(`Wrote ${out} (runs ${process.execPath} serve --data-dir ${dataDir} as ${opts.user}).\n`);
      const writeEnvFile = () => {
        try {
          process.stdout.write(`${ensureServiceEnvFile(envFile, dataDir)}\n`);
        } catch (e) {
          throw new Error(`cannot write ${envFile} (${fileProblem(e)}): run it with sudo`);
        }
      };
      if (existsSync(dirname(envFile))) writeEnvFile();
      const steps = setupSteps(opts.user, dataDir, envFile).filter((s) => !(s[0] === "useradd" && userExists(opts.user)));
      if (!opts.yes) {
        const later = existsSync(dirname(envFile)) ? "" : `  (then this command again, which writes ${envFile} 0600 with NEARCAST_DATA_DIR=${dataDir})\n`;
        process.stdout.write(`To start it at boot, run as root:\n${steps.map((s) => `  ${s.join(" ")}\n`).join("")}${later}`);
        return;
      }
      for (const step of steps) {
        if (step[0] === "systemctl" && step[1] === "daemon-reload" && !existsSync(envFile)) writeEnvFile();
        process.stdout.write(`$ ${step.join(" ")}\n`);
        const r = Bun.spawnSync(step, { stdout: "inherit", stderr: "inherit" });
        if (r.exitCode !== 0) throw new Error(`${step[0]} failed (exit ${r.exitCode}); the steps after it did not run`);
      }
      process.stdout.write("Nearcast runs as a service: `systemctl status nearcast`, `journalctl -u nearcast -f`.\n");
    });
}
