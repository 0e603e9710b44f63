package portal

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/keys"
	"github.com/sentinel-sca/sentinel/internal/org"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
)

// Agents.

type agentsData struct {
	Agents list[sentinel.Agent]
	// Token is set once, in the answer to the form that made it.
	Token   *wire.TokenResponse
	Command string
	Now     time.Time
}

func (s *Site) agentsPage(w http.ResponseWriter, r *http.Request, c *reqCtx, d *agentsData) error {
	as, err := listOf[sentinel.Agent](s, r, c, "/v1/agents", nil)
	if err != nil {
		return err
	}
	d.Agents, d.Now = as, s.now()
	s.render(w, r, c, http.StatusOK, "agents.html", &view{Title: "Agents", Active: "agents", Data: d})
	return nil
}

func (s *Site) agents(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.agentsPage(w, r, c, &agentsData{})
}

// createEnrollmentToken makes a one-time token and shows it once, with
// the command that uses it.
func (s *Site) createEnrollmentToken(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	var t wire.TokenResponse
	if err := s.call(r, c, http.MethodPost, "/v1/agent/enrollment-tokens", nil, nil, &t); err != nil {
		return err
	}
	cmd := t.EnrollCommand // the API's, with the agent listener's public URL
	if cmd == "" {
		cmd = "sentinel enroll --agent-server https://<agent-listener> --token " + t.Token
	}
	return s.agentsPage(w, r, c, &agentsData{Token: &t, Command: cmd})
}

func (s *Site) revokeAgent(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	if err := s.call(r, c, http.MethodPost, "/v1/agents/"+url.PathEscape(r.PathValue("id"))+"/revoke", nil, nil, nil); err != nil {
		return err
	}
	redirect(w, r, "/agents", "agent_revoked")
	return nil
}

// Webhooks.

// eventGroup is a group of event types for the picker.
type eventGroup struct {
	Pattern string // "finding.*"
	Types   []string
}

func eventGroups() []eventGroup {
	var out []eventGroup
	for _, t := range sentinel.EventTypes {
		g, _, _ := strings.Cut(t, ".")
		if len(out) == 0 || out[len(out)-1].Pattern != g+".*" {
			out = append(out, eventGroup{Pattern: g + ".*"})
		}
		out[len(out)-1].Types = append(out[len(out)-1].Types, t)
	}
	return out
}

type webhooksData struct {
	Webhooks list[webhooks.Webhook]
	Groups   []eventGroup
	// Created is set once, in the answer to the form: it holds the secret.
	Created *webhooks.WithSecret
	Form    webhookForm
}

type webhookForm struct {
	URL, Description, Extra string
	Events                  []string
}

// Has reports whether the form had pattern checked.
func (f webhookForm) Has(pattern string) bool { return slices.Contains(f.Events, pattern) }

func (s *Site) webhooksPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, v *view, d *webhooksData) error {
	ws, err := listOf[webhooks.Webhook](s, r, c, "/v1/webhooks", nil)
	if err != nil {
		return err
	}
	d.Webhooks, d.Groups = ws, eventGroups()
	v.Title, v.Active, v.Data = "Webhooks", "webhooks", d
	s.render(w, r, c, status, "webhooks.html", v)
	return nil
}

func (s *Site) webhooks(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.webhooksPage(w, r, c, http.StatusOK, &view{}, &webhooksData{})
}

// createWebhook registers a webhook from the picker's checked patterns
// plus any typed ones, and shows the secret once.
func (s *Site) createWebhook(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := r.PostForm
	form := webhookForm{URL: strings.TrimSpace(f.Get("url")), Description: f.Get("description"), Extra: f.Get("extra_events"), Events: f["events"]}
	events := append(slices.Clone(form.Events), strings.FieldsFunc(form.Extra, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t'
	})...)
	if events == nil {
		events = []string{}
	}
	var created webhooks.WithSecret
	err := s.call(r, c, http.MethodPost, "/v1/webhooks", nil, webhooks.CreateRequest{URL: form.URL, Events: events, Description: form.Description}, &created)
	if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
		return s.webhooksPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field}, &webhooksData{Form: form})
	}
	if err != nil {
		return err
	}
	return s.webhooksPage(w, r, c, http.StatusCreated, &view{}, &webhooksData{Created: &created})
}

type webhookData struct {
	W          webhooks.Webhook
	Deliveries list[webhooks.Delivery]
	// Secret is set once, in the answer to the rotation.
	Secret string
}

func (s *Site) webhookPage(w http.ResponseWriter, r *http.Request, c *reqCtx, secret string) error {
	id := r.PathValue("id")
	d := &webhookData{Secret: secret}
	if err := s.call(r, c, http.MethodGet, "/v1/webhooks/"+url.PathEscape(id), nil, nil, &d.W); err != nil {
		return err
	}
	ds, err := listOf[webhooks.Delivery](s, r, c, "/v1/webhooks/"+url.PathEscape(id)+"/deliveries", nil)
	if err != nil {
		return err
	}
	d.Deliveries = ds
	for _, x := range ds.Items {
		if x.Status == sentinel.DeliveryPending || x.Status == "delivering" || x.Status == sentinel.DeliveryWaiting {
			w.Header().Set("Refresh", "5")
			break
		}
	}
	s.render(w, r, c, http.StatusOK, "webhook.html", &view{Title: "Webhook " + d.W.ID, Active: "webhooks", Data: d})
	return nil
}

func (s *Site) webhook(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.webhookPage(w, r, c, "")
}

func (s *Site) testWebhook(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id := r.PathValue("id")
	if err := s.call(r, c, http.MethodPost, "/v1/webhooks/"+url.PathEscape(id)+"/test", nil, nil, nil); err != nil {
		return err
	}
	redirect(w, r, "/webhooks/"+url.PathEscape(id), "webhook_test")
	return nil
}

func (s *Site) rotateWebhook(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	var ws webhooks.WithSecret
	if err := s.call(r, c, http.MethodPost, "/v1/webhooks/"+url.PathEscape(r.PathValue("id"))+"/rotate-secret", nil, nil, &ws); err != nil {
		return err
	}
	return s.webhookPage(w, r, c, ws.Secret)
}

func (s *Site) setWebhookActive(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id := r.PathValue("id")
	active := r.PostForm.Get("active") == "true"
	if err := s.call(r, c, http.MethodPatch, "/v1/webhooks/"+url.PathEscape(id), nil, webhooks.UpdateRequest{Active: &active}, nil); err != nil {
		return err
	}
	redirect(w, r, "/webhooks/"+url.PathEscape(id), "webhook_active")
	return nil
}

func (s *Site) deleteWebhook(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	if err := s.call(r, c, http.MethodDelete, "/v1/webhooks/"+url.PathEscape(r.PathValue("id")), nil, nil, nil); err != nil {
		return err
	}
	redirect(w, r, "/webhooks", "webhook_deleted")
	return nil
}

func (s *Site) redeliver(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id := r.PathValue("id")
	if err := s.call(r, c, http.MethodPost, "/v1/webhooks/"+url.PathEscape(id)+"/deliveries/"+url.PathEscape(r.PathValue("delivery"))+"/redeliver", nil, nil, nil); err != nil {
		return err
	}
	redirect(w, r, "/webhooks/"+url.PathEscape(id), "redelivered")
	return nil
}

// Evidence Bundles.

type bundlesData struct {
	Bundles list[evidence.Info]
	Scopes  []string
	// Issued is set once, in the answer to the form: the share URL and
	// the password.
	Issued *evidence.CreateResponse
	Form   bundleForm
}

type bundleForm struct {
	WindowDays  string
	Include     []string
	Description string
}

// Has reports whether the form had include value s checked.
func (f bundleForm) Has(s string) bool { return f.Include == nil || slices.Contains(f.Include, s) }

func (s *Site) bundlesPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, v *view, d *bundlesData) error {
	bs, err := listOf[evidence.Info](s, r, c, "/v1/sca/bundles", nil)
	if err != nil {
		return err
	}
	d.Bundles, d.Scopes = bs, evidence.Scopes
	if d.Form.WindowDays == "" {
		d.Form.WindowDays = strconv.Itoa(evidence.DefaultWindowDays)
	}
	for _, b := range bs.Items {
		if b.Build == sentinel.BundleBuilding {
			w.Header().Set("Refresh", "5")
			break
		}
	}
	v.Title, v.Active, v.Data = "Evidence Bundles", "bundles", d
	s.render(w, r, c, status, "bundles.html", v)
	return nil
}

func (s *Site) bundles(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.bundlesPage(w, r, c, http.StatusOK, &view{}, &bundlesData{})
}

func (s *Site) issueBundle(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := r.PostForm
	form := bundleForm{WindowDays: strings.TrimSpace(f.Get("window_days")), Include: f["include"], Description: f.Get("description")}
	if form.Include == nil {
		form.Include = []string{}
	}
	req := evidence.CreateRequest{Include: form.Include, Description: form.Description}
	if form.WindowDays != "" {
		n, err := strconv.Atoi(form.WindowDays)
		if err != nil {
			return s.bundlesPage(w, r, c, http.StatusBadRequest, &view{Error: "window_days must be an integer from 1 to 365", Field: "window_days"}, &bundlesData{Form: form})
		}
		req.WindowDays = &n
	}
	var out evidence.CreateResponse
	err := s.call(r, c, http.MethodPost, "/v1/sca/bundles", nil, req, &out)
	if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
		return s.bundlesPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field}, &bundlesData{Form: form})
	}
	if err != nil {
		return err
	}
	// No redirect: the share URL and the password exist only in this
	// answer.
	return s.bundlesPage(w, r, c, http.StatusCreated, &view{}, &bundlesData{Issued: &out})
}

type bundleData struct {
	ID     string
	Info   *evidence.Info
	Access list[evidence.AccessEntry]
	// Names are the email addresses of the users among the creators.
	Names map[string]string
}

func (s *Site) bundle(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id := r.PathValue("id")
	d := &bundleData{ID: id}
	acc, err := listOf[evidence.AccessEntry](s, r, c, "/v1/sca/bundles/"+url.PathEscape(id)+"/audit", nil)
	if err != nil {
		return err
	}
	d.Access = acc
	// The list operation is the only one that shows a bundle: find it on
	// its first pages (newest first, so recent bundles are quick).
	if c.can(sentinel.ScopeSCARead) {
		cursor := ""
		for range 20 {
			var bs httpapi.ListResponse[evidence.Info]
			q := url.Values{"limit": {"500"}}
			if cursor != "" {
				q.Set("cursor", cursor)
			}
			if err := s.call(r, c, http.MethodGet, "/v1/sca/bundles", q, nil, &bs); err != nil {
				return err
			}
			if i := slices.IndexFunc(bs.Data, func(b evidence.Info) bool { return b.ID == id }); i >= 0 {
				d.Info = &bs.Data[i]
				break
			}
			if cursor = bs.NextCursor; cursor == "" {
				break
			}
		}
	}
	if d.Info != nil {
		d.Names = s.userNames(r, c, []string{d.Info.CreatedBy})
	}
	s.render(w, r, c, http.StatusOK, "bundle.html", &view{Title: "Bundle " + id, Active: "bundles", Data: d})
	return nil
}

func (s *Site) revokeBundle(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id := r.PathValue("id")
	if err := s.call(r, c, http.MethodPost, "/v1/sca/bundles/"+url.PathEscape(id)+"/revoke", nil, nil, nil); err != nil {
		return err
	}
	redirect(w, r, "/bundles/"+url.PathEscape(id), "bundle_revoked")
	return nil
}

// Settings → API Keys.

type keysData struct {
	Keys   list[sentinel.APIKey]
	Scopes []string
	// Created is set once, in the answer to the form: it holds the key.
	Created *keys.CreateResponse
	Form    keyForm
	// Names are the email addresses of the users who created keys.
	Names map[string]string
}

type keyForm struct {
	Name   string
	Scopes []string
}

// Has reports whether the form had scope checked.
func (f keyForm) Has(scope string) bool { return slices.Contains(f.Scopes, scope) }

func (s *Site) keysPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, v *view, d *keysData) error {
	ks, err := listOf[sentinel.APIKey](s, r, c, "/v1/api-keys", nil)
	if err != nil {
		return err
	}
	d.Keys, d.Scopes = ks, sentinel.AllScopes
	var creators []string
	for _, k := range ks.Items {
		creators = append(creators, k.CreatedBy)
	}
	d.Names = s.userNames(r, c, creators)
	v.Title, v.Active, v.Data = "API keys", "settings", d
	s.render(w, r, c, status, "keys.html", v)
	return nil
}

func (s *Site) keys(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.keysPage(w, r, c, http.StatusOK, &view{}, &keysData{})
}

func (s *Site) createKey(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	form := keyForm{Name: strings.TrimSpace(r.PostForm.Get("name")), Scopes: r.PostForm["scopes"]}
	if form.Scopes == nil {
		form.Scopes = []string{}
	}
	var created keys.CreateResponse
	err := s.call(r, c, http.MethodPost, "/v1/api-keys", nil, keys.CreateRequest{Name: form.Name, Scopes: form.Scopes}, &created)
	if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
		return s.keysPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field}, &keysData{Form: form})
	}
	if err != nil {
		return err
	}
	return s.keysPage(w, r, c, http.StatusCreated, &view{}, &keysData{Created: &created})
}

func (s *Site) revokeKey(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	if err := s.call(r, c, http.MethodDelete, "/v1/api-keys/"+url.PathEscape(r.PathValue("id")), nil, nil, nil); err != nil {
		return err
	}
	redirect(w, r, "/settings/keys", "key_revoked")
	return nil
}

// Settings → Organization.

type orgData struct {
	Settings org.Settings
	Meters   []sentinel.MeterStatus
	Catalogs []string
}

func (s *Site) orgPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, v *view, form *org.Settings) error {
	d := &orgData{Catalogs: []string{"nist-800-53", "pci-dss-4", "iso-27001-2022"}}
	if err := s.call(r, c, http.MethodGet, "/v1/organization", nil, nil, &d.Settings); err != nil {
		return err
	}
	var ms httpapi.ListResponse[sentinel.MeterStatus]
	if err := s.call(r, c, http.MethodGet, "/v1/meters", nil, nil, &ms); err != nil {
		return err
	}
	d.Meters = ms.Data
	if form != nil {
		d.Settings.Name, d.Settings.Catalog, d.Settings.ShareDays, d.Settings.RequireVerifiedTargets = form.Name, form.Catalog, form.ShareDays, form.RequireVerifiedTargets
	}
	v.Title, v.Active, v.Data = "Organization", "settings", d
	s.render(w, r, c, status, "organization.html", v)
	return nil
}

func (s *Site) organization(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.orgPage(w, r, c, http.StatusOK, &view{}, nil)
}

func (s *Site) updateOrganization(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := r.PostForm
	name, catalog := strings.TrimSpace(f.Get("name")), f.Get("catalog")
	verified := f.Get("require_verified_targets") == "on"
	days, err := strconv.Atoi(strings.TrimSpace(f.Get("share_days")))
	form := &org.Settings{Name: name, Catalog: catalog, ShareDays: days, RequireVerifiedTargets: verified}
	if err != nil {
		return s.orgPage(w, r, c, http.StatusBadRequest, &view{Error: "share_days must be from 1 to 30", Field: "share_days"}, form)
	}
	err = s.call(r, c, http.MethodPatch, "/v1/organization", nil, org.SettingsUpdate{Name: &name, Catalog: &catalog, ShareDays: &days,
		RequireVerifiedTargets: &verified}, nil)
	if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
		return s.orgPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field}, form)
	}
	if err != nil {
		return err
	}
	redirect(w, r, "/settings/organization", "org_updated")
	return nil
}

// Settings → Users.

type usersData struct {
	Users list[sentinel.User]
	Roles []string
	// Created is set once, in the answer to a form that made a set-up
	// link: the new user's, or a new link for an existing one.
	Created *UserWithLink
	Form    CreateUserRequest
}

func (s *Site) usersPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, v *view, d *usersData) error {
	us, err := listOf[sentinel.User](s, r, c, "/v1/users", nil)
	if err != nil {
		return err
	}
	d.Users, d.Roles = us, sentinel.Roles
	if d.Form.Role == "" {
		d.Form.Role = sentinel.RoleViewer
	}
	v.Title, v.Active, v.Data = "Users", "settings", d
	s.render(w, r, c, status, "users.html", v)
	return nil
}

func (s *Site) users(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.usersPage(w, r, c, http.StatusOK, &view{}, &usersData{})
}

func (s *Site) createUser(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := r.PostForm
	req := CreateUserRequest{Email: strings.TrimSpace(f.Get("email")), Name: f.Get("name"), Role: f.Get("role")}
	var out UserWithLink
	err := s.call(r, c, http.MethodPost, "/v1/users", nil, req, &out)
	if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
		return s.usersPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field}, &usersData{Form: req})
	}
	if err != nil {
		return err
	}
	return s.usersPage(w, r, c, http.StatusCreated, &view{}, &usersData{Created: &out})
}

// updateUser changes a user's role, or disables or enables the account.
func (s *Site) updateUser(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := r.PostForm
	var body UpdateUserRequest
	if v := f.Get("role"); v != "" {
		body.Role = &v
	}
	if v := f.Get("status"); v != "" {
		body.Status = &v
	}
	err := s.call(r, c, http.MethodPatch, "/v1/users/"+url.PathEscape(r.PathValue("id")), nil, body, nil)
	if ae, ok := err.(*apiError); ok && (ae.Status == http.StatusBadRequest || ae.Status == http.StatusConflict) {
		return s.usersPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field}, &usersData{})
	}
	if err != nil {
		return err
	}
	redirect(w, r, "/settings/users", "user_updated")
	return nil
}

func (s *Site) userSetupLink(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	var out UserWithLink
	if err := s.call(r, c, http.MethodPost, "/v1/users/"+url.PathEscape(r.PathValue("id"))+"/setup-link", nil, nil, &out); err != nil {
		return err
	}
	return s.usersPage(w, r, c, http.StatusOK, &view{}, &usersData{Created: &out})
}
