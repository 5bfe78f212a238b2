package tools

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"syscall"
)

// addrPolicy decides which IP addresses web_fetch may connect to. It is
// applied to the resolved address at dial time (net.Dialer.Control), so a
// hostname that resolves to a private address, or a DNS answer that changes
// between a check and the connection, cannot get around it.
type addrPolicy struct {
	allowPrivate bool
	allowNets    []netip.Prefix
}

// blockedAddrError is returned by the dialer for a refused address.
type blockedAddrError struct {
	addr   netip.Addr
	reason string
}

func (e *blockedAddrError) Error() string {
	return fmt.Sprintf("%s is %s", e.addr, e.reason)
}

// nonPublic lists special-purpose ranges that netip's predicates do not
// cover but that are no more public than 10/8.
var nonPublic = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "a \"this network\" address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// check returns nil when a may be contacted.
func (p addrPolicy) check(a netip.Addr) error {
	a = a.Unmap()
	reason := classify(a)
	if reason == "" || p.allowPrivate {
		return nil
	}
	for _, n := range p.allowNets {
		if n.Contains(a) {
			return nil
		}
	}
	return &blockedAddrError{addr: a, reason: reason}
}

// classify names why a is not a public unicast address, or returns "".
func classify(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "not a valid address"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address (this includes cloud metadata endpoints)"
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "the broadcast address"
	}
	for _, n := range nonPublic {
		if n.prefix.Contains(a) {
			return n.reason
		}
	}
	// NAT64 and 6to4 addresses embed an IPv4 address that decides where
	// the packet really goes.
	if a.Is6() {
		b := a.As16()
		if nat64.Contains(a) {
			return classify(netip.AddrFrom4([4]byte(b[12:16])))
		}
		if sixToFour.Contains(a) {
			return classify(netip.AddrFrom4([4]byte(b[2:6])))
		}
	}
	return ""
}

// control is a net.Dialer.Control hook enforcing the policy on the address
// actually being connected to.
func (p addrPolicy) control(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("unexpected dial address %q", address)
	}
	return p.check(a)
}

// checkURL refuses non-http(s) URLs and, early and with a clear message,
// hosts given as literal non-public IPs. Hostnames are checked at dial time.
func (p addrPolicy) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("refused: scheme %q is not supported; web_fetch only fetches http and https URLs", u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("refused: URL %q has no host", u.String())
	}
	if u.User != nil {
		return fmt.Errorf("refused: URL %q embeds credentials", u.Redacted())
	}
	if a, err := netip.ParseAddr(u.Hostname()); err == nil {
		if err := p.check(a); err != nil {
			return refusedAddr(u, err)
		}
	}
	return nil
}

// refusedAddr words a policy refusal for the model, or returns nil when err
// is not one.
func refusedAddr(u *url.URL, err error) error {
	var b *blockedAddrError
	if !errors.As(err, &b) {
		return nil
	}
	const why = "web_fetch only fetches public internet addresses (the host can allow private ones in its configuration)"
	if a, err := netip.ParseAddr(u.Hostname()); err == nil && a.Unmap() == b.addr {
		return fmt.Errorf("refused: %s is %s; %s", b.addr, b.reason, why)
	}
	return fmt.Errorf("refused: %s resolves to %s, %s; %s", u.Hostname(), b.addr, b.reason, why)
}
