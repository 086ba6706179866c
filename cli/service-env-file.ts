// The service's env file as `install-service` leaves it: 0600 (it holds the Twilio token and the SMTP password),
// with the data dir the unit serves, so every other command finds that data dir (src/service-env.ts).
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { parseEnvFile } from "../src/service-env.ts";

export const ENV_FILE_MODE = 0o600;

/** Creates `path` 0600 with NEARCAST_DATA_DIR, or makes an existing one 0600 and adds the line when it lacks it.
 * What was done, for the output. */
export function ensureServiceEnvFile(path: string, dataDir: string): string {
  if (!existsSync(path)) {
    writeFileSync(path, `# Settings of the nearcast service, one NAME=value per line (NEARCAST_PUBLIC_URL=https://...).\nNEARCAST_DATA_DIR=${dataDir}\n`, { mode: ENV_FILE_MODE });
    chmodSync(path, ENV_FILE_MODE); // whatever the umask
    return `Wrote ${path} (0600) with NEARCAST_DATA_DIR=${dataDir}.`;
  }
  const said: string[] = [];
  const mode = statSync(path).mode & 0o777;
  if (mode !== ENV_FILE_MODE) {
    chmodSync(path, ENV_FILE_MODE);
    said.push(`made it 0600 (it was ${mode.toString(8).padStart(4, "0")}: it holds secrets)`);
  }
  const text = readFileSync(path, "utf8");
  const current = parseEnvFile(text).NEARCAST_DATA_DIR;
  if (current === undefined) {
    writeFileSync(path, `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}NEARCAST_DATA_DIR=${dataDir}\n`);
    said.push(`added NEARCAST_DATA_DIR=${dataDir}`);
  } else if (current !== dataDir) {
    said.push(`left its NEARCAST_DATA_DIR=${current} as it is (the unit serves ${dataDir}: make them agree)`);
  }
  return said.length ? `${path}: ${said.join("; ")}.` : `${path} is 0600 and names the data dir already.`;
}
