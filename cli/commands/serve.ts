import { Command } from "commander";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { holdServeLock } from "../../src/db/lock.ts";
import { createConsoleLogger } from "../../src/lib/logger.ts";
import { describeMessenger } from "../../src/messaging/index.ts";
import { startServer } from "../../src/server.ts";
import { VERSION } from "../../src/version.ts";
import { assets, publicPages, subscribePage } from "../../build/web/manifest.ts";
import { dataDirOption, examples, usageExit } from "../context.ts";
import { runAsDataDirOwner } from "../data-dir-owner.ts";
import { reachableLine, reachableUrls } from "../reachable-addresses.ts";
import { startBackgroundWork } from "../serve-background.ts";
import { checkDatabaseBeforeServe, warnUnwritableFolders } from "../serve-checks.ts";
import { backupBeforeUpgrade } from "./backup.ts";

export function serveCommand(): Command {
  return new Command("serve")
    .description("serve the web UI and API (and run the message dispatcher)")
    .option("--port <port>", "port to listen on (env NEARCAST_PORT)", undefined)
    .option("--host <host>", "address to bind (env NEARCAST_HOST)", undefined)
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      examples(
        "nearcast serve",
        "nearcast serve --port 8080 --data-dir /var/lib/nearcast",
        "NEARCAST_PUBLIC_URL=https://deals.example.com nearcast serve --host 127.0.0.1",
      ),
    )
    .action((opts: { port?: string; host?: string; dataDir?: string }) => {
      const config = loadConfig(process.env, opts);
      // As the data dir's owner (a `sudo nearcast serve` included); a database it cannot open, a busy one, a
      // damaged one and a lost one are each refused in their own words (cli/serve-checks.ts).
      runAsDataDirOwner(config.dataDir);
      checkDatabaseBeforeServe(config);
      const logger = createConsoleLogger(config.logLevel);
      warnUnwritableFolders(config, logger);
      const ctx = createContext(config, { logger, beforeUpgrade: backupBeforeUpgrade(config, (line) => logger.info(line)) });
      // A logout of the SSH session that started it sends SIGHUP: the server stays up (set before it listens, so
      // none can come too early). Nothing to reload: settings changed on the Settings screen or by `nearcast
      // settings` apply at once, the environment at a restart.
      process.on("SIGHUP", () => ctx.logger.info("SIGHUP received: ignored (stop the server with SIGTERM or Ctrl-C)"));
      // Every server on this folder, dispatching or standing by, keeps `nearcast restore` away while it runs.
      const serving = holdServeLock(config.dataDir);
      const settings = ctx.services.settings;
      for (const line of describeMessenger(settings.messaging())) ctx.logger.info(line);
      const problem = settings.current().twilioProblem;
      if (problem) ctx.logger.warn(problem);
      const server = startServer(ctx, { assets, subscribePage, publicPages });
      // The one line serve always writes, whatever NEARCAST_LOG_LEVEL: its version, address and data.
      createConsoleLogger("info").info(`Nearcast ${VERSION} listening on ${server.url} (data in ${config.dataDir}, public URL ${settings.current().publicUrl ?? "not set: emailed links and Twilio's images and callbacks wait for one"})`);
      // Where else it answers (the machine's addresses, printed only), then on a first run the setup link, also at them.
      const others = reachableUrls(config.host, Number(new URL(server.url).port));
      createConsoleLogger("info").info(reachableLine(config.host, others));
      ctx.services.setupCode.announce(server.url, (line) => createConsoleLogger("info").info(line), others);
      const background = startBackgroundWork(ctx, config);
      const shutdown = async (signal: string) => {
        ctx.logger.info(`${signal} received, shutting down`);
        // Stop claiming, let sends in flight finish (up to 10 s), put unstarted claims back in the queue; mail that
        // answered requests handed to the background (a reset link) is still sent.
        await Promise.all([server.stop(), background.stop()]);
        await Promise.race([ctx.services.auth.idle(), Bun.sleep(10_000)]); // a hung SMTP server does not hold the exit
        await background.stopCheckpoints();
        ctx.close();
        serving.release();
        process.exit(0);
      };
      process.once("SIGTERM", () => void shutdown("SIGTERM"));
      process.once("SIGINT", () => void shutdown("SIGINT"));
    });
}
