import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4 ranges (ipaddr.js names) that are reachable on the public internet. */
const PUBLIC_V4 = new Set(["unicast", "as112", "amt"]);
/** IPv6 ranges (ipaddr.js names) that are reachable on the public internet. */
const PUBLIC_V6 = new Set(["unicast", "as112v6", "amt"]);
/** IPv6 ranges that carry an IPv4 address the traffic ends up at. */
const EMBEDDING_V6 = new Set(["ipv4Mapped", "rfc6145", "rfc6052", "6to4", "teredo"]);
/** Deprecated IPv4-compatible form ::a.b.c.d, which ipaddr.js files under unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

export interface AddressPolicy {
  /** Why `address` must not be reached, or undefined when it may be. Unparseable → a reason. */
  blockedReason(address: string): string | undefined;
}

/**
 * Builds the check applied to every address before a connection is made. `treatAsPublic`
 * lists CIDR ranges exempted from the check (tests let 127.0.0.1 play a public host).
 */
export function createAddressPolicy(treatAsPublic: readonly string[] = []): AddressPolicy {
  const exempt = treatAsPublic.map((cidr) => ipaddr.parseCIDR(cidr));
  const isExempt = (address: Address): boolean =>
    exempt.some(([range, bits]) => address.kind() === range.kind() && address.match(range, bits));

  const check = (address: Address): string | undefined => {
    if (isExempt(address)) return undefined;
    if (address.kind() === "ipv4") {
      const range = address.range();
      return PUBLIC_V4.has(range) ? undefined : `${address.toString()} is in the ${range} range`;
    }
    const v6 = address as ipaddr.IPv6;
    const range = v6.range();
    if (EMBEDDING_V6.has(range)) {
      for (const inner of embeddedIPv4(v6, range)) {
        const reason = check(inner);
        if (reason) return `${v6.toString()} (${range}) leads to ${reason}`;
      }
      return undefined;
    }
    if (range === "unicast" && v6.match(IPV4_COMPATIBLE)) return `${v6.toString()} is an IPv4-compatible address`;
    return PUBLIC_V6.has(range) ? undefined : `${v6.toString()} is in the ${range} range`;
  };

  return {
    blockedReason(address) {
      const literal = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
      if (!ipaddr.isValid(literal)) return `${address} is not an IP address`;
      const parsed = ipaddr.parse(literal);
      // ::ffff:a.b.c.d goes through the IPv4 rules so exemptions written as IPv4 apply to it too.
      return check(parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed);
    },
  };
}

/** The IPv4 addresses an IPv6 transition address leads to (Teredo carries two). */
function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  const p = address.parts;
  const v4 = (high: number, low: number): ipaddr.IPv4 =>
    new ipaddr.IPv4([(high >> 8) & 0xff, high & 0xff, (low >> 8) & 0xff, low & 0xff]);
  const at = (i: number): number => p[i] ?? 0;
  switch (range) {
    case "6to4": // 2002:AABB:CCDD::/48
      return [v4(at(1), at(2))];
    case "teredo": // 2001:0:SERVER:SERVER:flags:port:~CLIENT:~CLIENT
      return [v4(at(2), at(3)), v4(~at(6) & 0xffff, ~at(7) & 0xffff)];
    default: // ipv4Mapped, rfc6145, rfc6052 (/96 prefixes): the last 32 bits
      return [v4(at(6), at(7))];
  }
}
