package secrets

import (
	"fmt"
	"log/slog"
)

// redactedText is what every printed or marshalled form of a Credential
// shows instead of the value.
const redactedText = "[REDACTED]"

// Credential is a raw secret value as found in a file, with, for providers
// whose credentials come in two parts (AWS: access key id and secret access
// key), the second part as Companion.
//
// The zero Credential is empty. A Credential never shows its value: String,
// GoString, Format (every fmt verb), MarshalJSON, MarshalText and LogValue
// all give "[REDACTED]". Only Value and Companion return the raw strings,
// and they exist for exactly two callers: the agent building its submission
// to the service over mutual TLS, and the service's verifiers building the
// provider request. Anything else that calls them is a leak.
type Credential struct {
	// The strings live behind a pointer so that a Credential nested in an
	// unexported field of another struct prints as an address under
	// fmt's %v and %+v (fmt dereferences pointers only at the top level),
	// never as the value.
	p *credential
}

type credential struct {
	value, companion string
}

// NewCredential wraps a raw value and an optional companion (the AWS secret
// access key of an access key id; empty otherwise).
func NewCredential(value, companion string) Credential {
	if value == "" && companion == "" {
		return Credential{}
	}
	return Credential{p: &credential{value: value, companion: companion}}
}

// Value returns the raw secret. See the type's comment for who may call it.
func (c Credential) Value() string {
	if c.p == nil {
		return ""
	}
	return c.p.value
}

// Companion returns the raw second part of a two-part credential, or "".
func (c Credential) Companion() string {
	if c.p == nil {
		return ""
	}
	return c.p.companion
}

// IsZero reports whether c holds no value.
func (c Credential) IsZero() bool { return c.p == nil }

// String returns "[REDACTED]".
func (c Credential) String() string { return redactedText }

// GoString returns "[REDACTED]", for %#v.
func (c Credential) GoString() string { return redactedText }

// Format prints "[REDACTED]" whatever the verb, so %x or %q cannot leak
// the value either.
func (c Credential) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(redactedText)) }

// MarshalJSON returns the JSON string "[REDACTED]": a Credential that ends
// up in a JSON document by mistake shows that it was there, not what it
// was. The submission wire format carries values in explicit string
// fields instead (see Submission).
func (c Credential) MarshalJSON() ([]byte, error) { return []byte(`"` + redactedText + `"`), nil }

// MarshalText returns "[REDACTED]" (YAML, XML attributes, map keys).
func (c Credential) MarshalText() ([]byte, error) { return []byte(redactedText), nil }

// LogValue makes slog print "[REDACTED]".
func (c Credential) LogValue() slog.Value { return slog.StringValue(redactedText) }
