// Package sentinel holds Sentinel's domain: the types every layer shares
// (organizations, API keys, components, advisory matches, findings, events,
// webhooks, bundles), the error codes, and the service interfaces that the
// stores and the HTTP API implement and consume.
//
// It imports only the standard library, so any package may depend on it and
// it depends on none of them: the arrows point one way, cmd -> internal/... ->
// sentinel.
package sentinel
