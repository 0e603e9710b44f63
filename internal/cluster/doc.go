// Package cluster holds the scale-out harness: a test, behind the build
// tag "cluster" so that the normal suite does not run it, that starts
// three sentineld replicas on one private PostgreSQL and one Redis
// database, drives mixed load at them while it kills replicas and
// restarts PostgreSQL, and then checks what the design promises of
// several replicas (docs/topology.md). Run it with scripts/cluster.
package cluster
