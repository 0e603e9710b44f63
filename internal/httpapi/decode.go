package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// DecodeJSON reads one JSON object from r into v. Unknown fields, trailing
// data, wrong types and bodies over max are errors a caller can act on:
// EINVALID naming the field, or ETOOLARGE.
func DecodeJSON(r io.Reader, max int64, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return sentinel.Errorf(sentinel.ETOOLARGE, "the request body is larger than %d bytes", mbe.Limit)
		}
		return sentinel.Errorf(sentinel.EINVALID, "the request body could not be read")
	}
	if int64(len(data)) > max {
		return sentinel.Errorf(sentinel.ETOOLARGE, "the request body is larger than %d bytes", max)
	}
	return decodeBytes(data, v)
}

func decodeBytes(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return sentinel.Errorf(sentinel.EINVALID, "the request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return sentinel.Errorf(sentinel.EINVALID, "the request body must hold one JSON object and nothing after it")
	}
	return nil
}

func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var own *sentinel.Error
	switch {
	case errors.As(err, &own): // a type's own UnmarshalJSON said what is wrong
		return own
	case errors.As(err, &syn):
		return sentinel.Errorf(sentinel.EINVALID, "the request body is not valid JSON (at byte %d)", syn.Offset)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return sentinel.Errorf(sentinel.EINVALID, "the request body must be a JSON object")
		}
		return sentinel.InvalidField(field, "field %q must be %s, not %s", field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return sentinel.Errorf(sentinel.EINVALID, "the request body is truncated JSON")
	}
	// encoding/json reports unknown fields only as text; it has no typed error.
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		f, _ = strconv.Unquote(f)
		return sentinel.InvalidField(f, "unknown field %q", f)
	}
	return sentinel.Errorf(sentinel.EINVALID, "the request body could not be decoded: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"):
		return "an integer"
	case strings.HasPrefix(k, "float"):
		return "a number"
	case k == "slice", k == "array":
		return "an array"
	case k == "struct", k == "map":
		return "an object"
	case k == "bool":
		return "a boolean"
	}
	return fmt.Sprintf("a %s", k)
}

// DecodeOptionalJSON is DecodeJSON for a body that may be absent: an empty
// body leaves v as it is; anything else must be one valid JSON object.
func DecodeOptionalJSON(r io.Reader, max int64, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return sentinel.Errorf(sentinel.EINVALID, "the request body could not be read")
	}
	if int64(len(data)) > max {
		return sentinel.Errorf(sentinel.ETOOLARGE, "the request body is larger than %d bytes", max)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	return decodeBytes(data, v)
}
