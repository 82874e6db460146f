package e2eenv

import (
	"net"
	"os"
	"strconv"
	"strings"
)

// ReadPortFile reads the file `serve --port-file` writes once every listener is bound: a line
// "<role> <host>:<port>" per listener (webhook, health, metrics). ok is false until the file exists
// (serve writes it atomically, so a file that exists is whole).
func ReadPortFile(path string) (addrs map[string]string, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	addrs = map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			addrs[f[0]] = f[1]
		}
	}
	return addrs, true
}

// Port is the port of a "host:port" address, 0 when it has none.
func Port(addr string) int {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return 0
	}
	return n
}
