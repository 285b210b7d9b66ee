// Where a vendor's result link may lead. A vendor answer (or a redirect) pointing at this machine, the local
// network or a cloud metadata service would make the server fetch and store whatever lives there, so every
// hop is resolved and refused when any of its addresses is loopback, private, link-local, multicast or
// otherwise not on the public internet. The vendor's own configured origin is trusted as it is (a
// self-hosted vendor on the LAN serves its results from there); an operator may narrow the public hosts
// further with an allow-list.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv6");
}

/** True for an address that is not on the public internet (IPv4-mapped IPv6 is judged as its IPv4). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}

export type DownloadPolicy = {
  /** The vendor's configured API origin, e.g. http://10.0.0.5:8080: trusted whatever its address. */
  trustedOrigin: string | undefined;
  /** When set, other hosts must be one of these or a subdomain of one. */
  allowedHosts: string[] | undefined;
};

/** A host name that does not resolve right now: a network problem, worth a retry, not a refusal. */
export class UnresolvedHost extends Error {}

/**
 * Why a link may not be fetched, or undefined when it may. Resolves the host name (all its addresses);
 * throws UnresolvedHost when the name does not resolve.
 */
export async function refusalFor(url: URL, policy: DownloadPolicy): Promise<string | undefined> {
  if (policy.trustedOrigin && url.origin === policy.trustedOrigin) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (
    policy.allowedHosts &&
    !policy.allowedHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))
  ) {
    return `host ${host} is not in VENDOR_DOWNLOAD_HOSTS`;
  }
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw new UnresolvedHost(`host ${host} does not resolve`);
    }
  }
  const blocked = addresses.find(isNonPublicAddress);
  return blocked === undefined ? undefined : `host ${host} resolves to a non-public address (${blocked})`;
}
