// Where a started server can be opened from, for its start-up lines: the machine's own network addresses, read from
// os.networkInterfaces() and only printed (nothing here connects to them). A server bound to every address
// (0.0.0.0, the default, or ::) answers on each of them; one bound to loopback only on this machine.
import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

const urlOf = (address: string, port: number) => `http://${address.includes(":") ? `[${address}]` : address}:${port}`;

/** An IPv6 link-local address (fe80::/10) needs its interface's zone to be opened: not a link to hand anyone. */
const isLinkLocal = (a: NetworkInterfaceInfo) => a.family === "IPv6" && /^fe[89ab]/i.test(a.address);

/**
 * The URLs other devices may open this server at: every non-internal address of the machine when bound to all of
 * them (IPv4 only for 0.0.0.0, IPv4 and IPv6 for ::), the one address bound otherwise, none when bound to loopback.
 */
export function reachableUrls(host: string, port: number, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  if (LOOPBACK.has(host) || host.startsWith("127.")) return [];
  if (host !== "0.0.0.0" && host !== "::") return [urlOf(host, port)];
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && !isLinkLocal(a) && (host === "::" || a.family === "IPv4"))
    .map((a) => a.address);
  return [...new Set(addresses)].map((a) => urlOf(a, port));
}

/** The start-up line after "listening on": where else the server can be opened, or that only this machine can. */
export function reachableLine(host: string, urls: string[]): string {
  if (urls.length > 0) return `Open it from other devices at ${urls.join(", ")}`;
  if (LOOPBACK.has(host) || host.startsWith("127.")) return `Reachable only from this machine (bound to ${host}): start it with --host 0.0.0.0 to open it to your network, or put a reverse proxy in front`;
  return "No network address found besides this machine's own: other devices cannot reach it yet";
}
