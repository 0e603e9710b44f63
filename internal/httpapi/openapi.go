package httpapi

import (
	"net/http"
	"path"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

var pathParam = regexp.MustCompile(`\{([a-zA-Z_]+)\.{0,3}\}`)

// OpenAPI returns the OpenAPI 3.1 document of every registered route,
// with schemas generated from the routes' request and response types
// (huma's schema registry, used as a library; our handlers stay plain
// net/http).
func (s *Server) OpenAPI() *huma.OpenAPI {
	s.init()
	reg := huma.NewMapRegistry("#/components/schemas/", schemaNamer)
	errSchema := reg.Schema(reflect.TypeOf(ErrorBody{}), true, "Error")
	doc := &huma.OpenAPI{
		OpenAPI: "3.1.0",
		Info: &huma.Info{Title: "Sentinel API", Version: s.Version,
			Description: "Software supply-chain security: inventory, advisories, findings, webhooks, evidence bundles."},
		Components: &huma.Components{Schemas: reg, SecuritySchemes: map[string]*huma.SecurityScheme{
			"ApiKey": {Type: "apiKey", In: "header", Name: "Authorization", Description: "Authorization: ApiKey <key>"},
		}},
	}
	for _, rt := range s.routes {
		op := &huma.Operation{
			OperationID: operationID(rt),
			Method:      rt.Method,
			Path:        pathParam.ReplaceAllString(rt.Path, "{$1}"),
			Summary:     rt.Summary,
			Responses:   map[string]*huma.Response{},
		}
		for _, m := range pathParam.FindAllStringSubmatch(rt.Path, -1) {
			op.Parameters = append(op.Parameters, &huma.Param{Name: m[1], In: "path", Required: true, Schema: &huma.Schema{Type: "string"}})
		}
		for _, q := range rt.Query {
			op.Parameters = append(op.Parameters, &huma.Param{Name: q, In: "query", Schema: &huma.Schema{Type: "string"}})
		}
		if rt.Request != nil {
			op.RequestBody = &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
				"application/json": {Schema: reg.Schema(reflect.TypeOf(rt.Request), true, op.OperationID+"Request")},
			}}
		}
		ok := &huma.Response{Description: http.StatusText(rt.Status)}
		if rt.Response != nil {
			ok.Content = map[string]*huma.MediaType{"application/json": {Schema: reg.Schema(reflect.TypeOf(rt.Response), true, op.OperationID+"Response")}}
		}
		op.Responses[strconv.Itoa(rt.Status)] = ok
		errResp := &huma.Response{Description: "Error", Content: map[string]*huma.MediaType{"application/json": {Schema: errSchema}}}
		if rt.Scope != "" {
			op.Security = []map[string][]string{{"ApiKey": {}}}
			op.Description = "Requires scope `" + rt.Scope + "`. Rate-limit class: " + rt.Class + "."
			op.Responses["401"], op.Responses["403"], op.Responses["429"] = errResp, errResp, errResp
		}
		if rt.Request != nil {
			op.Responses["400"], op.Responses["413"] = errResp, errResp
		}
		if strings.Contains(rt.Path, "{") {
			op.Responses["404"] = errResp
		}
		doc.AddOperation(op)
	}
	return doc
}

func operationID(rt Route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(rt.Method))
	for _, part := range strings.FieldsFunc(rt.Path, func(r rune) bool { return r == '/' || r == '-' || r == '.' || r == '_' }) {
		if strings.HasPrefix(part, "{") {
			part = "by-" + strings.Trim(part, "{}.")
		}
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// schemaNamer names schemas after their Go type, prefixed with the package
// for types outside the domain package: two capabilities may both have a
// CreateRequest.
func schemaNamer(t reflect.Type, hint string) string {
	name := huma.DefaultSchemaNamer(t, hint)
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	pkg := path.Base(t.PkgPath())
	if t.Name() == "" || pkg == "." || pkg == "sentinel" || strings.HasPrefix(name, strings.ToUpper(pkg[:1])+pkg[1:]) {
		return name
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + name
}
