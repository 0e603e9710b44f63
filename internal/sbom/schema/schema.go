// Package schema holds the official CycloneDX JSON schemas, 1.2 to 1.7, and
// the schemas they refer to (the SPDX license list, JSF signatures, 1.7's
// cryptography definitions), embedded so that nothing is fetched: see
// README.md for their source and license.
package schema

import "embed"

// Files are the schemas, by file name ("bom-1.5.schema.json").
//
//go:embed *.json
var Files embed.FS
