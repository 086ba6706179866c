// Issue 21 item 6: an admin who types `sudo` never breaks the service. Every command that opens a data dir runs as
// the user who owns it: root (sudo) becomes that user before anything is opened or created, after giving back to
// it whatever an older nearcast run as root left there; any other user who cannot write there is told the exact
// command to use. A file the server's user cannot read or write is said in those words, never called damaged.
import { accessSync, chownSync, constants, existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { ConfigError } from "../src/config.ts";
import { DB_FILE } from "../src/db/client.ts";

/** The login name of `uid` (from /etc/passwd), or `#uid`, which sudo -u also takes. */
export function userName(uid: number): string {
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const [name, , id] = line.split(":");
      if (name && Number(id) === uid && id !== "") return name;
    }
  } catch {}
  return `#${uid}`;
}

const me = () => process.getuid?.() ?? 0;

/** The data dir, or the nearest folder above it that exists (whose owner a new data dir would belong to). */
function nearestExisting(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/** This command line as the data dir's owner would type it: `sudo -u nearcast /usr/local/bin/nearcast backup ...`,
 * with --data-dir added when the data dir came from the environment or the service's env file. */
export function commandAs(user: string, dataDir: string, argv: readonly string[] = process.argv): string {
  const exe = Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, Bun.main];
  const args = argv.slice(2);
  const named = args.some((a) => a === "--data-dir" || a.startsWith("--data-dir="));
  return ["sudo", "-u", user, ...exe, ...args, ...(named ? [] : ["--data-dir", dataDir])].map(quote).join(" ");
}

/** Nearcast's own entries in a data dir (a data dir may sit beside other things; only these are handed back). */
const OWN = /^(nearcast\.db(-wal|-shm|-journal)?|[a-z]+\.lock|uploads|backups)(\.before-restore-.+)?$/;

/** Gives `path` (recursively) to uid:gid where another user (root, after a sudo) owns it; never follows a link. */
function handBack(path: string, uid: number, gid: number): void {
  const st = lstatSync(path);
  if (st.uid !== uid && !st.isSymbolicLink()) chownSync(path, uid, gid);
  if (st.isDirectory()) for (const name of readdirSync(path)) handBack(join(path, name), uid, gid);
}

/**
 * Makes this process the data dir's owner before it opens anything there: root becomes that user (handing back
 * to it first what root left in the data dir); another user who cannot write there gets the exact command.
 */
export function runAsDataDirOwner(dataDir: string): void {
  const anchor = nearestExisting(dataDir);
  const st = statSync(anchor);
  if (st.uid === me()) return;
  if (me() !== 0) {
    // A data dir still to be created: whether this user may create it is the command's to say.
    if (anchor !== dataDir || (canWrite(anchor) && canWriteAll(dataDir))) return;
    const owner = userName(st.uid);
    throw new ConfigError(`${anchor} belongs to ${owner}, not to ${userName(me())}: run it as ${owner}: ${commandAs(owner, dataDir)}`);
  }
  if (st.uid === 0) return;
  if (anchor === dataDir) {
    for (const name of readdirSync(dataDir)) if (OWN.test(name)) handBack(join(dataDir, name), st.uid, st.gid);
  }
  process.setgroups?.([st.gid]);
  process.setgid?.(st.gid);
  process.setuid?.(st.uid);
  becameOwner = userName(st.uid);
}

let becameOwner: string | null = null;

/** The user root became for the data dir (files named on the command line are then read and written as that user),
 * or null. */
export function actingAsOwner(): string | null {
  return becameOwner;
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | (statSync(path).isDirectory() ? constants.X_OK : 0));
    return true;
  } catch {
    return false;
  }
}

/** The database and its companions, when there, are writable too (a group-shared data dir). */
function canWriteAll(dataDir: string): boolean {
  return ["", "-wal", "-shm"].every((s) => !existsSync(join(dataDir, `${DB_FILE}${s}`)) || canWrite(join(dataDir, `${DB_FILE}${s}`)));
}
