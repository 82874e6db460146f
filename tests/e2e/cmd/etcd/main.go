// Command etcd is etcd's own server (go.etcd.io/etcd/server/v3/etcdmain) at the version Kubernetes pins,
// built from the module: the control plane's store (tests/e2e/control-plane.sh).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
