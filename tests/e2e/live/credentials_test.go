package live

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// TestRefusedCredentials: a kubeconfig that does not trust the API server's CA, a ServiceAccount token
// without any RBAC (403) and a token the API server does not know (401) make lint, plan and simulate
// exit 2 with a message that says what failed and for whom, and print no secret.
func TestRefusedCredentials(t *testing.T) {
	e := e2eenv.Get(t)
	const sa = "e2e-live-norights"
	if out, code := e.KubectlRun(t, "create", "serviceaccount", sa, "-n", "default"); code != 0 && !strings.Contains(out, "already exists") {
		t.Fatalf("kubectl create serviceaccount: %s", out)
	}
	t.Cleanup(func() { e.KubectlRun(t, "delete", "serviceaccount", sa, "-n", "default", "--ignore-not-found") })
	token, code := e.KubectlRun(t, "create", "token", sa, "-n", "default", "--duration", "10m")
	if code != 0 {
		t.Fatalf("kubectl create token: %s", token)
	}
	token = strings.TrimSpace(token)

	admin, err := clientcmd.LoadFromFile(e.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	var server *clientcmdapi.Cluster
	for _, c := range admin.Clusters {
		server = c
	}
	dir := t.TempDir()
	// kubeconfig writes a kubeconfig for user `sa` with this token and CA.
	kubeconfig := func(name, token string, ca []byte) string {
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["plane"] = &clientcmdapi.Cluster{Server: server.Server, CertificateAuthorityData: ca}
		cfg.AuthInfos[sa] = &clientcmdapi.AuthInfo{Token: token}
		cfg.Contexts["e2e"] = &clientcmdapi.Context{Cluster: "plane", AuthInfo: sa}
		cfg.CurrentContext = "e2e"
		file := filepath.Join(dir, name)
		if err := clientcmd.WriteToFile(*cfg, file); err != nil {
			t.Fatal(err)
		}
		return file
	}
	const unknownToken = "e2e-live-not-a-token-the-server-knows"

	ex := filepath.Join(e.Repo, "manifests/examples")
	commands := map[string][]string{
		"lint":     {"lint", filepath.Join(ex, "dc-groups.yaml")},
		"plan":     {"plan", filepath.Join(ex, "pr-edit")},
		"simulate": {"simulate", "--scenario", filepath.Join(ex, "drills/hybrid-cloud-overflow.yaml"), filepath.Join(ex, "overflow-onprem-cloud.yaml")},
	}
	cases := []struct {
		name, kubeconfig, secret string
		want                     []string // in stderr
	}{
		{"a CA that did not sign the server's certificate", kubeconfig("wrong-ca", token, otherCA(t)), token,
			[]string{"cannot verify the certificate of " + server.Server, "certificate-authority"}},
		{"a ServiceAccount token without RBAC", kubeconfig("no-rights", token, server.CertificateAuthorityData), token,
			[]string{"403 Forbidden", "user " + sa, `User "system:serviceaccount:default:` + sa + `" cannot list`}},
		{"a token the server does not know", kubeconfig("unknown-token", unknownToken, server.CertificateAuthorityData), unknownToken,
			[]string{"401 Unauthorized", "rejected the credentials of user " + sa}},
	}
	for _, c := range cases {
		for name, args := range commands {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				out, code := runSplit(t, e.Lint, append(args, "--kubeconfig", c.kubeconfig, "--request-timeout", "20s")...)
				if code != 2 {
					t.Errorf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out.stdout, out.stderr)
				}
				for _, w := range c.want {
					if !strings.Contains(out.stderr, w) {
						t.Errorf("stderr lacks %q:\n%s", w, out.stderr)
					}
				}
				if strings.Contains(out.stdout+out.stderr, c.secret) {
					t.Errorf("the token is printed:\n%s%s", out.stdout, out.stderr)
				}
				t.Logf("%s", strings.TrimSpace(out.stderr))
			})
		}
	}
}

// otherCA is a CA certificate (PEM) that signed nothing the plane serves.
func otherCA(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(27), Subject: pkix.Name{CommonName: "e2e-live-wrong-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
