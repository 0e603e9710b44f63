package netguard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestControl runs the dialer's Control hook on the addresses a connection
// could be about to reach. It calls the hook directly, so no address in this
// table, loopback or not, is ever sent a packet.
func TestControl(t *testing.T) {
	tests := []struct {
		address      string
		allowPrivate bool
		wantRefused  bool
	}{
		{"93.184.215.14:443", false, false},
		{"[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:443", false, false},
		{"[64:ff9b::5db8:d70e]:443", false, false},

		{"127.0.0.1:443", false, true},
		{"127.255.255.254:80", false, true},
		{"[::1]:443", false, true},
		{"[::ffff:127.0.0.1]:443", false, true},
		{"[::127.0.0.1]:443", false, true},
		{"[64:ff9b::7f00:1]:443", false, true},
		{"[2002:7f00:1::]:443", false, true},
		{"10.0.0.1:443", false, true},
		{"172.16.0.1:443", false, true},
		{"192.168.0.1:443", false, true},
		{"[fd00::1]:443", false, true},
		{"169.254.0.1:443", false, true},
		{"[fe80::1%eth0]:443", false, true},
		{"100.64.0.1:443", false, true},
		{"169.254.169.254:80", false, true},
		{"[fd00:ec2::254]:80", false, true},
		{"[::ffff:a9fe:a9fe]:80", false, true},
		{"0.0.0.0:443", false, true},
		{"[::]:443", false, true},
		{"224.0.0.1:443", false, true},
		{"255.255.255.255:443", false, true},
		{"192.0.2.1:443", false, true},

		{"127.0.0.1:443", true, false},
		{"[::1]:443", true, false},
		{"10.0.0.1:443", true, false},
		{"[fe80::1%eth0]:443", true, false},
		{"169.254.169.254:80", true, true},
		{"169.254.170.2:80", true, true},
		{"100.100.100.200:80", true, true},
		{"[fd00:ec2::254]:80", true, true},
		{"[::ffff:169.254.169.254]:80", true, true},
		{"[64:ff9b::a9fe:a9fe]:80", true, true},
		{"0.0.0.0:443", true, true},
		{"[::]:443", true, true},
		{"239.255.255.250:1900", true, true},
		{"255.255.255.255:443", true, true},

		{"not-an-address:443", true, true},
		{"127.0.0.1", true, true},
	}
	for _, tt := range tests {
		p := Policy{AllowPrivate: tt.allowPrivate}
		err := p.control("tcp", tt.address, nil)
		if got := errors.Is(err, ErrRefused); got != tt.wantRefused {
			t.Errorf("control(tcp, %q, AllowPrivate=%v) = %v, want refused: %v", tt.address, tt.allowPrivate, err, tt.wantRefused)
		}
	}
	if err := (Policy{AllowPrivate: true}).control("udp", "127.0.0.1:53", nil); !errors.Is(err, ErrRefused) {
		t.Errorf("control(udp) = %v, want ErrRefused", err)
	}
}

// TestDial_DefaultResolver checks the path without an injected resolver: the
// dialer resolves "localhost" itself (from /etc/hosts) and Control refuses
// the loopback address it produced. The request-level name check is
// bypassed on purpose by dialling directly.
func TestDial_DefaultResolver(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("server was reached")
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	p := Policy{}
	dial := p.dialContext(&net.Dialer{Timeout: time.Second, Control: p.control})
	conn, err := dial(context.Background(), "tcp", net.JoinHostPort("localhost", port))
	if err == nil {
		conn.Close()
		t.Fatal("dial(localhost) succeeded, want a refusal")
	}
	var ge *Error
	if !errors.As(err, &ge) || !errors.Is(err, ErrRefused) {
		t.Fatalf("dial(localhost) = %v, want a *Error wrapping ErrRefused", err)
	}

	p = Policy{AllowPrivate: true}
	dial = p.dialContext(&net.Dialer{Timeout: time.Second, Control: p.control})
	conn, err = dial(context.Background(), "tcp", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		t.Fatalf("dial(127.0.0.1, AllowPrivate) = %v", err)
	}
	conn.Close()
}
