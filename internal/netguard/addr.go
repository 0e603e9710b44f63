package netguard

import "net/netip"

// class says why an address is not an ordinary public unicast address.
type class struct {
	// what completes "... is <what>", e.g. "a loopback address".
	what string
	// always marks addresses refused even when Policy.AllowPrivate is set:
	// they are never a valid destination (unspecified, multicast, broadcast,
	// reserved) or they are the classic SSRF prize (cloud metadata services).
	always bool
}

var (
	classLoopback      = &class{what: "a loopback address"}
	classPrivate       = &class{what: "a private address (RFC 1918)"}
	classULA           = &class{what: "a private IPv6 address (unique local, RFC 4193)"}
	classLinkLocal     = &class{what: "a link-local address"}
	classCGNAT         = &class{what: "a shared carrier-grade NAT address (RFC 6598)"}
	classDocumentation = &class{what: "a documentation address, which is not routable"}
	classBenchmark     = &class{what: "a benchmarking address (RFC 2544)"}
	classSpecial       = &class{what: "a special-purpose address, not a public host"}
	classSiteLocal     = &class{what: "a deprecated site-local IPv6 address"}
	classNotGlobal     = &class{what: "not a global unicast IPv6 address"}

	classUnspecified = &class{what: "the unspecified address", always: true}
	classThisNetwork = &class{what: `in 0.0.0.0/8 ("this network")`, always: true}
	classMulticast   = &class{what: "a multicast address", always: true}
	classBroadcast   = &class{what: "the broadcast address", always: true}
	classReserved    = &class{what: "a reserved address (240.0.0.0/4)", always: true}
	classMetadata    = &class{what: "a cloud metadata service address", always: true}
)

type prefixClass struct {
	p netip.Prefix
	c *class
}

// metadata holds the instance metadata and platform endpoints of the
// clouds: credentials, configuration and host agents a workload can reach
// and a stranger must not, through us. Most sit inside ranges refused
// anyway; they stay refused under AllowPrivate. Some are public addresses
// (Azure's WireServer): the list is what refuses them at all.
var metadata = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OCI, DigitalOcean, Hetzner, OpenStack, ...
	netip.MustParseAddr("169.254.169.253"), // AWS VPC DNS resolver
	netip.MustParseAddr("169.254.169.123"), // AWS Time Sync
	netip.MustParseAddr("169.254.170.2"),   // AWS ECS task credentials
	netip.MustParseAddr("169.254.170.23"),  // AWS EKS Pod Identity agent
	netip.MustParseAddr("fd00:ec2::254"),   // AWS IMDS over IPv6
	netip.MustParseAddr("fd00:ec2::253"),   // AWS VPC DNS resolver over IPv6
	netip.MustParseAddr("fd00:ec2::123"),   // AWS Time Sync over IPv6
	netip.MustParseAddr("fd00:ec2::23"),    // AWS EKS Pod Identity agent over IPv6
	netip.MustParseAddr("168.63.129.16"),   // Azure WireServer (host agent, platform DNS): a public address
	netip.MustParseAddr("192.0.0.192"),     // Oracle Cloud metadata
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
	netip.MustParseAddr("169.254.0.23"),    // Tencent Cloud
}

// v4Ranges is checked in order; the first match wins. Addresses in none of
// them are public.
var v4Ranges = []prefixClass{
	{netip.MustParsePrefix("0.0.0.0/32"), classUnspecified},
	{netip.MustParsePrefix("0.0.0.0/8"), classThisNetwork},
	{netip.MustParsePrefix("127.0.0.0/8"), classLoopback},
	{netip.MustParsePrefix("10.0.0.0/8"), classPrivate},
	{netip.MustParsePrefix("172.16.0.0/12"), classPrivate},
	{netip.MustParsePrefix("192.168.0.0/16"), classPrivate},
	{netip.MustParsePrefix("100.64.0.0/10"), classCGNAT},
	{netip.MustParsePrefix("169.254.0.0/16"), classLinkLocal},
	{netip.MustParsePrefix("192.0.0.0/24"), classSpecial},   // IETF protocol assignments
	{netip.MustParsePrefix("192.88.99.0/24"), classSpecial}, // deprecated 6to4 relay anycast
	{netip.MustParsePrefix("192.0.2.0/24"), classDocumentation},
	{netip.MustParsePrefix("198.51.100.0/24"), classDocumentation},
	{netip.MustParsePrefix("203.0.113.0/24"), classDocumentation},
	{netip.MustParsePrefix("198.18.0.0/15"), classBenchmark},
	{netip.MustParsePrefix("224.0.0.0/4"), classMulticast},
	{netip.MustParsePrefix("255.255.255.255/32"), classBroadcast},
	{netip.MustParsePrefix("240.0.0.0/4"), classReserved},
}

// v6Ranges is checked in order after the forms that embed an IPv4 address
// have been unwrapped. Only 2000::/3 is global unicast; anything outside it
// that is not listed here is refused as not global.
var v6Ranges = []prefixClass{
	{netip.MustParsePrefix("::/128"), classUnspecified},
	{netip.MustParsePrefix("::1/128"), classLoopback},
	{netip.MustParsePrefix("fc00::/7"), classULA},
	{netip.MustParsePrefix("fe80::/10"), classLinkLocal},
	{netip.MustParsePrefix("fec0::/10"), classSiteLocal},
	{netip.MustParsePrefix("ff00::/8"), classMulticast},
	{netip.MustParsePrefix("64:ff9b:1::/48"), classSpecial}, // local-use NAT64 (RFC 8215)
	{netip.MustParsePrefix("100::/64"), classSpecial},       // discard-only (RFC 6666)
	{netip.MustParsePrefix("2001::/32"), classSpecial},      // Teredo: the IPv4 peer is hidden
	{netip.MustParsePrefix("2001:2::/48"), classBenchmark},
	{netip.MustParsePrefix("2001:10::/28"), classSpecial}, // ORCHID
	{netip.MustParsePrefix("2001:20::/28"), classSpecial}, // ORCHIDv2
	{netip.MustParsePrefix("2001:db8::/32"), classDocumentation},
	{netip.MustParsePrefix("3fff::/20"), classDocumentation},
}

var (
	compat4   = netip.MustParsePrefix("::/96")           // deprecated IPv4-compatible
	transl4   = netip.MustParsePrefix("::ffff:0:0:0/96") // SIIT IPv4-translated
	nat64     = netip.MustParsePrefix("64:ff9b::/96")    // well-known NAT64 prefix
	sixToFour = netip.MustParsePrefix("2002::/16")       // 6to4: IPv4 in bits 16-48
	global6   = netip.MustParsePrefix("2000::/3")
)

// classify returns nil for a public unicast address, otherwise the reason it
// is not one. IPv6 forms that carry an IPv4 address (mapped, compatible,
// translated, NAT64, 6to4) are judged by the IPv4 address they lead to, so
// ::ffff:127.0.0.1 is as much loopback as 127.0.0.1.
func classify(a netip.Addr) *class {
	a = a.WithZone("")
	if !a.IsValid() {
		return classUnspecified
	}
	if a.Is4In6() {
		return classify(a.Unmap())
	}
	for _, m := range metadata {
		if a == m {
			return classMetadata
		}
	}
	if a.Is4() {
		for _, r := range v4Ranges {
			if r.p.Contains(a) {
				return r.c
			}
		}
		return nil
	}

	b := a.As16()
	switch {
	case a == netip.IPv6Unspecified() || a == netip.IPv6Loopback():
		// Inside ::/96, but not IPv4-compatible addresses.
	case compat4.Contains(a), transl4.Contains(a):
		// Deprecated forms some stacks still route to the embedded IPv4
		// address: refuse them unless private targets are allowed, and
		// always when the embedded address is itself always refused.
		if c := classify(netip.AddrFrom4([4]byte(b[12:16]))); c != nil {
			return c
		}
		return classSpecial
	case nat64.Contains(a):
		return classify(netip.AddrFrom4([4]byte(b[12:16])))
	case sixToFour.Contains(a):
		if c := classify(netip.AddrFrom4([4]byte(b[2:6]))); c != nil {
			return c
		}
	}
	for _, r := range v6Ranges {
		if r.p.Contains(a) {
			return r.c
		}
	}
	if !global6.Contains(a) {
		return classNotGlobal
	}
	return nil
}

// allowed reports whether policy p permits a connection to a, and if not,
// the reason.
func allowed(a netip.Addr, p Policy) (bool, *class) {
	c := classify(a)
	if c == nil || (p.AllowPrivate && !c.always) {
		return true, c
	}
	return false, c
}
