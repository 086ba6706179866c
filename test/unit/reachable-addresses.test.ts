// The start-up line names where the server can be opened besides localhost (issue 23, item 12): the machine's
// addresses from os.networkInterfaces(), only printed. The interfaces are given, as a Pi on a home network has them.
import { describe, expect, test } from "bun:test";
import type { NetworkInterfaceInfo } from "node:os";
import { reachableLine, reachableUrls } from "../../cli/reachable-addresses.ts";

const nic = (address: string, family: "IPv4" | "IPv6", internal = false) => ({ address, family, internal, netmask: "", mac: "", cidr: null }) as NetworkInterfaceInfo;
const PI = {
  lo: [nic("127.0.0.1", "IPv4", true), nic("::1", "IPv6", true)],
  eth0: [nic("192.168.1.20", "IPv4"), nic("fd00::20", "IPv6"), nic("fe80::1", "IPv6")],
  wlan0: [nic("10.0.0.7", "IPv4")],
};

describe("reachable addresses", () => {
  test("bound to 0.0.0.0 (the default): every outside IPv4 address; loopback and link-local left out", () => {
    expect(reachableUrls("0.0.0.0", 3000, PI)).toEqual(["http://192.168.1.20:3000", "http://10.0.0.7:3000"]);
    expect(reachableLine("0.0.0.0", reachableUrls("0.0.0.0", 3000, PI))).toBe("Open it from other devices at http://192.168.1.20:3000, http://10.0.0.7:3000");
  });

  test("bound to ::: IPv6 too, in brackets", () => {
    expect(reachableUrls("::", 8080, PI)).toEqual(["http://192.168.1.20:8080", "http://[fd00::20]:8080", "http://10.0.0.7:8080"]);
  });

  test("bound to one address: that one; to loopback: none, and the line says how to open it", () => {
    expect(reachableUrls("192.168.1.20", 3000, PI)).toEqual(["http://192.168.1.20:3000"]);
    expect(reachableUrls("127.0.0.1", 3000, PI)).toEqual([]);
    expect(reachableLine("127.0.0.1", [])).toContain("Reachable only from this machine (bound to 127.0.0.1)");
    expect(reachableLine("127.0.0.1", [])).toContain("--host 0.0.0.0");
  });

  test("a machine with no outside address says so", () => {
    expect(reachableUrls("0.0.0.0", 3000, { lo: PI.lo })).toEqual([]);
    expect(reachableLine("0.0.0.0", [])).toContain("other devices cannot reach it");
  });
});
