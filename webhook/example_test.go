package webhook_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/sentinel-sca/sentinel/webhook"
)

func ExampleVerifyAt() {
	body := []byte(`{"id":"evt_1","type":"webhook.test","created_at":"2023-11-14T22:13:20Z","organization":"acme","data":{}}`)
	signedAt := time.Unix(1700000000, 0)
	header := webhook.SignatureHeader(signedAt, body, "whsec_example")

	fmt.Println(webhook.VerifyAt("whsec_example", header, body, 5*time.Minute, signedAt.Add(time.Minute)))
	err := webhook.VerifyAt("whsec_example", header, body, 5*time.Minute, signedAt.Add(time.Hour))
	fmt.Println(errors.Is(err, webhook.ErrTimestampOutOfTolerance))
	err = webhook.VerifyAt("whsec_example", header, append(body, ' '), 5*time.Minute, signedAt)
	fmt.Println(errors.Is(err, webhook.ErrSignatureMismatch))
	// Output:
	// <nil>
	// true
	// true
}

func ExampleHandler() {
	h := webhook.Handler("whsec_example", 0, func(ctx context.Context, e webhook.Event) error {
		slog.InfoContext(ctx, "event", "id", e.ID, "type", e.Type)
		return nil
	})
	http.Handle("POST /hooks/sentinel", h)
}
