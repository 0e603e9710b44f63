package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/agent/client"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
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
	c.warnUnchecked(resp.Unchecked)
	return nil
}

// warnUnchecked says, on stderr, which of a submission's components the
// service cannot check: a host of an RPM distribution the service does not
// sync would otherwise look clean.
func (c *Command) warnUnchecked(un []wire.UncheckedEcosystem) {
	var parts []string
	for _, u := range un {
		eco := u.Ecosystem
		if eco == "" {
			eco = "without a package URL"
		}
		parts = append(parts, fmt.Sprintf("%d %s", u.Components, eco))
	}
	if len(parts) > 0 {
		fmt.Fprintf(c.stderr(), "sentinel: warning: the service has no advisories for some components, which are not checked: %s. An operator adds an ecosystem to the service's intel (--intel-ecosystems).\n",
			strings.Join(parts, ", "))
	}
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
	req := client.Request{Method: "POST", Path: wire.PathSubmit, ContentType: "application/vnd.cyclonedx+json", Want: http.StatusCreated,
		Body: func() (io.ReadCloser, int64, error) { return openSBOM(file, body) }}
	if host != "" {
		req.Query = url.Values{"host": {host}}
	}
	cl := c.apiClient(base, o.apiKey, client.Options{Timeout: 15 * time.Minute, TLS: client.MutualTLS(id.serverCA, id.cert)})
	defer cl.Close()
	var resp wire.SubmitResponse
	if err := cl.Do(ctx, req, &resp); err != nil {
		var ae *client.Error
		if !errors.As(err, &ae) {
			err = explainTLS(err)
		}
		return nil, err
	}
	return &resp, nil
}

// openSBOM opens the SBOM to submit, once per attempt: the file, or body
// when file is "".
func openSBOM(file string, body []byte) (io.ReadCloser, int64, error) {
	if file == "" {
		return io.NopCloser(bytes.NewReader(body)), int64(len(body)), nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
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
