// Where `users create` and `users reset-password` get a password from, so that it stays out of shell history and of
// `ps`: a prompt that does not echo (on a terminal), or standard input with --password-stdin (scripts: `printf %s
// "$PW" | nearcast users create ... --password-stdin`, as `docker login` does). --password <value> still works for
// old scripts, but nothing shows it any more.
import { type Command, Option } from "commander";
import { ValidationError } from "../src/errors.ts";

export interface PasswordFlags {
  /** --password <value>, or true for a bare --password (ask for it). */
  password?: string | true;
  passwordStdin?: boolean;
}

export const NO_TERMINAL = (example: string) =>
  `No terminal to ask for the password on: pipe it in with --password-stdin (for example printf %s "$PASSWORD" | ${example} --password-stdin)`;
export const PASSWORDS_DIFFER = "The two passwords differ; nothing was changed";

/** Adds --password-stdin, and --password [value] hidden from the help (scripts that pass it keep working). */
export function withPasswordOptions(cmd: Command, what: string): Command {
  return cmd
    .addOption(new Option("--password-stdin", `read ${what} from standard input (the first line)`))
    .addOption(new Option("--password [password]", `${what} on the command line (visible to other users of this machine; prefer the prompt or --password-stdin)`).hideHelp());
}

/** The first line of standard input, without its line ending. */
async function fromStdin(): Promise<string> {
  const text = await Bun.stdin.text();
  return text.split(/\r?\n/)[0] ?? "";
}

/** Reads one line from the terminal without echoing it; Ctrl-C stops the command (exit 130, nothing changed). */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve) => {
    let typed = "";
    const done = (exitCode?: number) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (exitCode !== undefined) process.exit(exitCode);
      resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return done();
        if (ch === "\u0003") return done(130);
        if (ch === "\u007f" || ch === "\b") typed = [...typed].slice(0, -1).join("");
        else if (ch >= " ") typed += ch;
      }
    };
    stdin.setRawMode(true);
    // The prompt only once echo is off: an answer typed (or pasted) the moment it shows is not echoed.
    process.stderr.write(question);
    stdin.resume();
    stdin.on("data", onData);
  });
}

/**
 * The password the flags ask for: --password's value, standard input's first line, or (on a terminal, for a bare
 * --password or none at all) a prompt asked twice. `example` is the command to show when there is no terminal.
 */
export async function readPassword(flags: PasswordFlags, example: string): Promise<string> {
  if (flags.passwordStdin && flags.password !== undefined) throw new ValidationError("Give the password one way: --password-stdin or the prompt, not both");
  if (typeof flags.password === "string") return flags.password;
  if (flags.passwordStdin) return fromStdin();
  if (!process.stdin.isTTY) throw new ValidationError(NO_TERMINAL(example));
  const first = await promptHidden("Password: ");
  const again = await promptHidden("Password again: ");
  if (first !== again) throw new ValidationError(PASSWORDS_DIFFER);
  return first;
}
