package plane

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"time"
)

// frontProxyClient is the name kube-apiserver's aggregator presents to aggregated API servers (the
// --requestheader-allowed-names they trust).
const frontProxyClient = "front-proxy-client"

// frontProxy is the aggregation layer's PKI: a CA that aggregated API servers trust for request headers
// (published by kube-apiserver in kube-system/extension-apiserver-authentication) and the client
// certificate kube-apiserver proxies with. Our `certs` makes serving certificates only, so these two
// are made here.
type frontProxy struct {
	caFile, certFile, keyFile string
}

func makeFrontProxy(dir string) (frontProxy, error) {
	fp := frontProxy{caFile: filepath.Join(dir, "front-proxy-ca.crt"),
		certFile: filepath.Join(dir, "front-proxy-client.crt"), keyFile: filepath.Join(dir, "front-proxy-client.key")}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fp, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "front-proxy-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return fp, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fp, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: frontProxyClient},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caTmpl, &key.PublicKey, caKey)
	if err != nil {
		return fp, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return fp, err
	}
	for _, f := range []struct {
		path, typ string
		der       []byte
	}{{fp.caFile, "CERTIFICATE", caDER}, {fp.certFile, "CERTIFICATE", der}, {fp.keyFile, "EC PRIVATE KEY", keyDER}} {
		if err := os.WriteFile(f.path, pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der}), 0o600); err != nil {
			return fp, err
		}
	}
	return fp, nil
}

// apiServerArgs turn on the aggregation layer in kube-apiserver.
func (fp frontProxy) apiServerArgs() map[string]string {
	return map[string]string{
		"requestheader-client-ca-file":       fp.caFile,
		"requestheader-allowed-names":        frontProxyClient,
		"requestheader-username-headers":     "X-Remote-User",
		"requestheader-group-headers":        "X-Remote-Group",
		"requestheader-extra-headers-prefix": "X-Remote-Extra-",
		"proxy-client-cert-file":             fp.certFile,
		"proxy-client-key-file":              fp.keyFile,
	}
}
