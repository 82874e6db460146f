package service

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
)

// backend answers each line with its name and the line.
func backend(t *testing.T, name string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if _, err := io.WriteString(c, name+":"+line); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

type conn struct {
	net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, s *Service) conn {
	t.Helper()
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return conn{c, bufio.NewReader(c)}
}

// ask sends a line and returns the answer ("" when the connection closed).
func (c conn) ask(t *testing.T, line string) string {
	t.Helper()
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return ""
	}
	got, err := c.r.ReadString('\n')
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(got, "\n")
}

func TestEndpointsAndOpenConnections(t *testing.T) {
	a, b := backend(t, "a"), backend(t, "b")
	s, err := Start(a, b)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// One choice per connection, round robin: two connections reach both backends (which one each is up
	// to the order the Service accepts them), and a connection keeps its backend.
	first, second := dial(t, s), dial(t, s)
	one, two := first.ask(t, "1"), second.ask(t, "2")
	if one[:1] == two[:1] || one[1:] != ":1" || two[1:] != ":2" {
		t.Fatalf("two connections answered %q and %q, want one from each backend", one, two)
	}
	if got := first.ask(t, "3"); got != one[:1]+":3" {
		t.Errorf("the first connection answered %q after %q: its backend changed", got, one)
	}
	if one[:1] == "b" { // name them so that first goes to a
		first, second = second, first
	}

	s.SetEndpoints(b) // a terminating: no new connection, its open one kept
	if got := dial(t, s).ask(t, "4"); got != "b:4" {
		t.Errorf("a new connection after a's removal answered %q, want b:4", got)
	}
	if got := first.ask(t, "5"); got != "a:5" {
		t.Errorf("the open connection to a answered %q, want a:5", got)
	}
	if s.Opened(a) != 1 || s.Opened(b) != 2 {
		t.Errorf("opened a=%d b=%d, want 1 and 2", s.Opened(a), s.Opened(b))
	}

	s.SetEndpoints()
	if got := dial(t, s).ask(t, "6"); got != "" || s.Refused() != 1 {
		t.Errorf("without endpoints: answer %q, refused %d; want none and 1", got, s.Refused())
	}
}
