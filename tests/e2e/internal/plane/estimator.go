package plane

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
)

// EstimatorServicePort is the port karmada-scheduler dials estimators at (its --scheduler-estimator-port,
// default 10352: cmd/scheduler/app/options/options.go:38 in Karmada v1.18.2). Each estimator listens on
// an ephemeral port of its own; the Service maps this port to it.
const EstimatorServicePort = 10352

// estimatorService is how karmada-scheduler finds a member's estimator. pkg/estimator/client/cache.go:
// 107-119 (EstablishConnection) looks up the Service "<--scheduler-estimator-service-prefix>-<cluster>"
// (names.GenerateEstimatorServiceName, pkg/util/names/names.go:179) in
// --scheduler-estimator-service-namespace on the Karmada API server, and pkg/estimator/client/service.go:
// 34-69 (resolveCluster) accepts only an ExternalName Service: it dials "<externalName>:<targetPort>" of
// the Service port equal to --scheduler-estimator-port (findServicePort, :72). So one ExternalName
// Service per member, externalName 127.0.0.1, port 10352 -> the estimator's own port: every estimator on
// its own ephemeral port, no shared port, no extra loopback address. (Without the Service the scheduler
// falls back to <name>.<namespace>.svc[.cluster.local]:10352, service.go:44-48, which does not resolve
// here.)
const estimatorService = `apiVersion: v1
kind: Service
metadata:
  name: karmada-scheduler-estimator-%s
  namespace: karmada-system
spec:
  type: ExternalName
  externalName: 127.0.0.1
  ports:
  - name: grpc
    port: %d
    targetPort: %d
`

// startEstimators runs karmada-scheduler-estimator for each member (its kubeconfig, --cluster-name) and
// registers its Service. Plain gRPC: without certificate flags neither the estimator
// (pkg/util/grpcconnection/config.go:72-75) nor the scheduler (:109-112) uses TLS.
//
// The estimator's gRPC listener binds every interface on its port (net.Listen(":port"),
// pkg/estimator/server/server.go:165; there is no bind-address flag); the scheduler dials it on
// 127.0.0.1 only, and its health and metrics servers are bound to 127.0.0.1 here.
func (p *Plane) startEstimators(ctx context.Context) error {
	for _, m := range p.Members {
		ports, err := freePorts(2)
		if err != nil {
			return err
		}
		c := Component{Name: m.Name + "/karmada-scheduler-estimator", Log: p.logFile(m.Name + "-karmada-scheduler-estimator"),
			Ports: map[string]int{"grpc": ports[0], "health": ports[1]},
			Args: []string{"--kubeconfig", m.Kubeconfig, "--cluster-name", m.Name,
				"--server-port", strconv.Itoa(ports[0]),
				"--health-probe-bind-address", fmt.Sprintf("127.0.0.1:%d", ports[1]), "--metrics-bind-address", "0"}}
		if err := p.start(ctx, c, filepath.Join(p.cfg.Bin, "estimator", "karmada-scheduler-estimator"),
			fmt.Sprintf("http://127.0.0.1:%d/healthz", ports[1]), ""); err != nil {
			return err
		}
		wctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
		err = waitTCP(wctx, fmt.Sprintf("127.0.0.1:%d", ports[0]))
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		m.EstimatorPort = ports[0]
		if _, err := p.Kubectl(fmt.Sprintf(estimatorService, m.Name, EstimatorServicePort, ports[0]), "apply", "-f", "-"); err != nil {
			return err
		}
	}
	return nil
}
