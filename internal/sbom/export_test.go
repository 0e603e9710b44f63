package sbom

// Test-only access to unexported names.
var (
	ExtractorNames = extractorNames
	GraphFormats   = func() []string { return graphFormats }
)
