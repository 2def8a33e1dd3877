import { describe, expect, it } from "vitest";
import { createAddressPolicy } from "../../../src/engines/local/fetch/address-policy.js";

const policy = createAddressPolicy();

describe("address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["198.18.0.1", "reserved"],
    ["198.19.255.255", "reserved"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:a9fe:a9fe", "linkLocal"],
    ["::ffff:0:a00:1", "private"], // rfc6145
    ["64:ff9b::7f00:1", "loopback"], // NAT64
    ["64:ff9b::a9fe:a9fe", "linkLocal"],
    ["2002:7f00:1::", "loopback"], // 6to4
    ["2002:c0a8:101::1", "private"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"], // Teredo, client 127.0.0.1
    ["2001:0:a00:1:8000:63bf:f7f7:f7f7", "private"], // Teredo, server 10.0.0.1
    ["::7f00:1", "IPv4-compatible"],
    ["2001:db8::1", "reserved"],
  ])("blocks %s (%s)", (address, range) => {
    expect(policy.blockedReason(address)).toContain(range);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"])(
    "lets public %s through",
    (address) => {
      expect(policy.blockedReason(address)).toBeUndefined();
    },
  );

  it("refuses what is not an address", () => {
    expect(policy.blockedReason("example.com")).toContain("not an IP address");
    expect(policy.blockedReason("0x7f.1")).toBeDefined();
  });

  it("exempts only the ranges given as public", () => {
    const exempt = createAddressPolicy(["127.0.0.1/32"]);
    expect(exempt.blockedReason("127.0.0.1")).toBeUndefined();
    expect(exempt.blockedReason("::ffff:127.0.0.1")).toBeUndefined();
    expect(exempt.blockedReason("127.0.0.2")).toContain("loopback");
    expect(exempt.blockedReason("::1")).toContain("loopback");
  });
});
