// Package service is a stand-in for a Kubernetes Service in front of webhook replicas: a TCP listener on
// loopback that sends each new connection to one of the current endpoints, round robin, and copies bytes
// both ways until either side closes. As with kube-proxy's iptables rules, the choice is made once per
// connection: removing an endpoint sends it no new connection but leaves its open ones alone, which is
// what a terminating pod sees while it drains.
package service

import (
	"io"
	"net"
	"strconv"
	"sync"
)

// Service forwards connections to its endpoints ("host:port").
type Service struct {
	ln net.Listener

	mu        sync.Mutex
	endpoints []string
	next      int
	opened    map[string]int // connections sent to each endpoint so far
	refused   int            // connections closed at once: no endpoint
	conns     map[net.Conn]struct{}
	wg        sync.WaitGroup
	closed    bool
}

// Start listens on a free loopback port and serves until Close.
func Start(endpoints ...string) (*Service, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Service{ln: ln, endpoints: append([]string(nil), endpoints...), opened: map[string]int{},
		conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Port is the port the Service listens on.
func (s *Service) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Addr is "127.0.0.1:port".
func (s *Service) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port())) }

// SetEndpoints replaces the endpoints new connections go to (open connections stay where they are).
func (s *Service) SetEndpoints(endpoints ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoints = append([]string(nil), endpoints...)
	s.next = 0
}

// Opened is how many connections went to endpoint so far.
func (s *Service) Opened(endpoint string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened[endpoint]
}

// Refused is how many connections arrived while there was no endpoint.
func (s *Service) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Close stops listening, closes every forwarded connection and waits for the copies to end.
func (s *Service) Close() error {
	err := s.ln.Close()
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

func (s *Service) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return // closed
		}
		s.wg.Add(1)
		go s.forward(c)
	}
}

// pick chooses the endpoint of a new connection and registers the connection ("" when there is none).
func (s *Service) pick(c net.Conn) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.endpoints) == 0 || s.closed {
		s.refused++
		return ""
	}
	ep := s.endpoints[s.next%len(s.endpoints)]
	s.next++
	s.opened[ep]++
	s.conns[c] = struct{}{}
	return ep
}

func (s *Service) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Service) forget(cs ...net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range cs {
		delete(s.conns, c)
	}
}

func (s *Service) forward(client net.Conn) {
	defer s.wg.Done()
	defer client.Close()
	ep := s.pick(client)
	if ep == "" {
		return
	}
	defer s.forget(client)
	conn, err := net.Dial("tcp", ep)
	if err != nil { // as a Service whose endpoint went away: the client sees its connection closed
		return
	}
	backend := conn.(*net.TCPConn)
	defer backend.Close()
	if !s.track(backend) {
		return
	}
	defer s.forget(backend)
	done := make(chan struct{})
	go func() { pipe(backend, client.(*net.TCPConn)); close(done) }()
	pipe(client.(*net.TCPConn), backend)
	<-done
}

// pipe copies src to dst until src's end, then half-closes dst so that the FIN travels on, as through
// NAT; an error (a reset) closes both.
func pipe(dst, src *net.TCPConn) {
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		src.Close()
		return
	}
	_ = dst.CloseWrite()
}
