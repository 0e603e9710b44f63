package agent

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/sentinel-sca/sentinel/internal/agentapi/wire"
)

func (c *Command) submitCmd(ctx context.Context, args []string) error {
	fs := c.flagSet("submit")
	o := c.commonFlags(fs)
	host := fs.String("host", "", "the host or asset the SBOM describes (default: the SBOM's sentinel:host, else the enrolled host)")
	asJSON := fs.Bool("json", false, "print the service's answer as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("usage: sentinel submit [--host NAME] [--json] FILE (or - for standard input)")
	}
	o.env(c)
	var body []byte
	var file string
	if pos[0] == "-" {
		if c.Stdin == nil {
			return usageErr("no standard input")
		}
		if body, err = io.ReadAll(c.Stdin); err != nil {
			return err
		}
	} else {
		file = pos[0]
		if _, err := os.Stat(file); err != nil {
			return err
		}
	}
	resp, err := c.submit(ctx, o, *host, file, body)
	if err != nil {
		return err
	}
	return c.printSubmitted(resp, *asJSON)
}

func (c *Command) printSubmitted(resp *wire.SubmitResponse, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(c.stdout())
		enc.SetIndent("", "  ")
		return enc.Encode(resp)
	}
	fmt.Fprintf(c.stdout(), "submitted %s: %d components (%d indexed) from %s, CycloneDX %s, sha256 %s\n",
		resp.ID, resp.Components, resp.Indexed, resp.Host, resp.SpecVersion, resp.SHA256)
	return nil
}

// submit posts an SBOM (the file, or body when file is "") to the agent
// listener with the enrolled certificate and the API key.
func (c *Command) submit(ctx context.Context, o *common, host, file string, body []byte) (*wire.SubmitResponse, error) {
	if o.apiKey == "" {
		return nil, usageErr("an API key with the sca:submit scope is required: --api-key or SENTINEL_API_KEY")
	}
	id, err := c.loadIdentity()
	if err != nil {
		return nil, err
	}
	server := o.agentServer
	if server == "" {
		server = id.config.AgentServer
	}
	base, err := agentURL(server)
	if err != nil {
		return nil, err
	}
	u := base.JoinPath(wire.PathSubmit)
	if host != "" {
		u.RawQuery = url.Values{"host": {host}}.Encode()
	}
	client := &http.Client{Timeout: 15 * time.Minute, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: id.serverCA, Certificates: []tls.Certificate{id.cert}},
	}}
	defer client.CloseIdleConnections()
	resp, err := withRetry(ctx, c, func() (*wire.SubmitResponse, bool, time.Duration, error) {
		resp, err := c.postSBOM(ctx, client, u.String(), o.apiKey, file, body)
		var ae *apiError
		if errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests {
			return resp, true, ae.RetryAfter, err
		}
		return resp, false, 0, err
	})
	var ae *apiError
	if err != nil && !errors.As(err, &ae) {
		err = explainTLS(err)
	}
	return resp, err
}

func (c *Command) postSBOM(ctx context.Context, client *http.Client, u, apiKey, file string, body []byte) (*wire.SubmitResponse, error) {
	var rd io.Reader
	var size int64
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		rd, size = f, st.Size()
	} else {
		rd, size = bytes.NewReader(body), int64(len(body))
	}
	req, err := http.NewRequestWithContext(ctx, "POST", u, rd)
	if err != nil {
		return nil, err
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/vnd.cyclonedx+json")
	req.Header.Set("Authorization", "ApiKey "+apiKey)
	req.Header.Set("User-Agent", "sentinel/"+Version)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return nil, readAPIError(resp)
	}
	var out wire.SubmitResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&out); err != nil {
		return nil, fmt.Errorf("read the answer: %w", err)
	}
	return &out, nil
}

// explainTLS adds the likely cause to a handshake refusal: the listener
// rejects a certificate in the handshake, so the client sees only an alert.
func explainTLS(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "remote error" {
		return fmt.Errorf("%w: the agent listener refused this agent's certificate (expired, or from another deployment?); enroll again with a new token", err)
	}
	return err
}
