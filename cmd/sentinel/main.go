// Command sentinel is the Sentinel agent: it enrolls a host, builds
// CycloneDX 1.5 SBOMs from the manifests it finds, and submits them to the
// service over mutual TLS. Everything is in internal/agent; see its package
// comment for the commands and configuration.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/sentinel-sca/sentinel/internal/agent"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := agent.Main(ctx, &agent.Command{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Env: os.Environ()})
	stop()
	os.Exit(code)
}
