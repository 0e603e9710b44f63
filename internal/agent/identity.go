package agent

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// File names under SENTINEL_HOME.
const (
	keyFile      = "agent.key"
	certFile     = "agent.crt"
	caFile       = "ca.crt"
	serverCAFile = "server-ca.crt"
	configFile   = "config.json"
)

// savedConfig is config.json.
type savedConfig struct {
	AgentServer  string    `json:"agent_server"`
	Server       string    `json:"server,omitempty"`
	Organization string    `json:"organization"`
	Host         string    `json:"host"`
	AgentID      string    `json:"agent_id"`
	NotAfter     time.Time `json:"not_after"`
	EnrolledAt   time.Time `json:"enrolled_at"`
}

// home returns SENTINEL_HOME, or its default.
func (c *Command) home() (string, error) {
	if h := c.getenv("SENTINEL_HOME"); h != "" {
		return h, nil
	}
	if x := c.getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "sentinel"), nil
	}
	if h := c.getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "sentinel"), nil
	}
	return "", usageErr("cannot tell where to keep the agent's identity: set SENTINEL_HOME")
}

// identity is an enrolled agent's key, certificate and trust.
type identity struct {
	dir      string
	config   savedConfig
	cert     tls.Certificate
	serverCA *x509.CertPool
}

// loadIdentity reads what enroll saved.
func (c *Command) loadIdentity() (*identity, error) {
	dir, err := c.home()
	if err != nil {
		return nil, err
	}
	id := &identity{dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, configFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("this host is not enrolled (no %s): run sentinel enroll --agent-server https://HOST:8443 --token TOKEN", filepath.Join(dir, configFile))
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &id.config); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, configFile), err)
	}
	if st, err := os.Stat(filepath.Join(dir, keyFile)); err == nil && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s is readable by others (mode %v): run chmod 600 %s", filepath.Join(dir, keyFile), st.Mode().Perm(), filepath.Join(dir, keyFile))
	}
	id.cert, err = tls.LoadX509KeyPair(filepath.Join(dir, certFile), filepath.Join(dir, keyFile))
	if err != nil {
		return nil, fmt.Errorf("load the agent certificate: %w", err)
	}
	caPEM, err := os.ReadFile(filepath.Join(dir, serverCAFile))
	if err != nil {
		return nil, err
	}
	id.serverCA = x509.NewCertPool()
	if !id.serverCA.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("%s holds no certificate", filepath.Join(dir, serverCAFile))
	}
	return id, nil
}

// writeFileAtomic writes data to path with perm, through a temporary file
// in the same directory, so that a crash never leaves half a key.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// saveIdentity writes the identity files; the directory is made (or
// tightened to) 0700 and the key is 0600.
func saveIdentity(dir string, keyDER []byte, certPEM, caPEM, serverCAPEM string, cfg savedConfig) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	cj, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
		perm os.FileMode
	}{
		{keyFile, keyPEM, 0o600},
		{certFile, []byte(certPEM), 0o644},
		{caFile, []byte(caPEM), 0o644},
		{serverCAFile, []byte(serverCAPEM), 0o644},
		{configFile, append(cj, '\n'), 0o644},
	} {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.data, f.perm); err != nil {
			return fmt.Errorf("save %s: %w", f.name, err)
		}
	}
	return nil
}
