// Package webhooks verifies the switch's signed webhooks (SPEC 6) with the standard library only.
//
// Every delivery carries two signatures, both keyed by the endpoint secret exactly as issued
// ("whsec_" + base64):
//   - x-service-signature: sha256=<hex HMAC-SHA256(raw body, secret as text)> (SPEC 6);
//   - the Standard Webhooks trio webhook-id, webhook-timestamp and
//     webhook-signature: v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>", base64-decoded secret)>;
//     its timestamp rejects replays.
//
// Always verify the RAW body bytes as received, before any JSON parsing.
package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const (
	SignatureHeader = "X-Service-Signature"
	EventHeader     = "X-Service-Event"
	prefix          = "whsec_"
)

// Scheme names a signature the switch sends.
type Scheme string

const (
	Spec     Scheme = "spec"
	Standard Scheme = "standard"
)

// Error is a verification failure; Reason is one of the names in the README.
type Error struct{ Reason string }

func (e *Error) Error() string { return "webhook verification failed: " + e.Reason }

func fail(reason string) error { return &Error{Reason: reason} }

// Reason returns the failure name of an error returned by Verify, or "" for another error.
func Reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// Options of Verify. Secrets holds the endpoint secret as issued, or several during a rotation
// overlap (any one may match). Schemes defaults to both; Tolerance to 5 minutes; Now to time.Now.
type Options struct {
	Secrets   []string
	Schemes   []Scheme
	Tolerance time.Duration
	Now       func() time.Time
}

// Event is a verified delivery.
type Event struct {
	ID      string
	Type    string
	Payload map[string]any
}

var (
	standardBase64 = regexp.MustCompile(`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`)
	digits         = regexp.MustCompile(`^[0-9]{1,15}$`)
)

// StandardKey is the Standard Webhooks key of a secret (README, "Secrets").
func StandardKey(secret string) []byte {
	rest := ""
	if strings.HasPrefix(secret, prefix) {
		rest = secret[len(prefix):]
	}
	if rest != "" && standardBase64.MatchString(rest) {
		if k, err := base64.StdEncoding.DecodeString(rest); err == nil {
			return k
		}
	}
	return []byte(secret)
}

func has(schemes []Scheme, s Scheme) bool {
	for _, x := range schemes {
		if x == s {
			return true
		}
	}
	return false
}

// Verify checks a delivery over its raw body and returns the parsed event, or an *Error.
func Verify(body []byte, header http.Header, opts Options) (*Event, error) {
	var secrets []string
	for _, s := range opts.Secrets {
		if s != "" {
			secrets = append(secrets, s)
		}
	}
	if len(secrets) == 0 {
		return nil, fail("no_secret")
	}
	schemes := opts.Schemes
	if len(schemes) == 0 {
		schemes = []Scheme{Spec, Standard}
	}
	if has(schemes, Spec) {
		given := strings.ToLower(strings.TrimSpace(header.Get(SignatureHeader)))
		if given == "" {
			return nil, fail("missing_signature")
		}
		ok := false
		for _, s := range secrets {
			m := hmac.New(sha256.New, []byte(s))
			m.Write(body)
			ok = hmac.Equal([]byte("sha256="+hex.EncodeToString(m.Sum(nil))), []byte(given)) || ok
		}
		if !ok {
			return nil, fail("bad_signature")
		}
	}
	id := header.Get("Webhook-Id")
	if has(schemes, Standard) {
		ts, sig := header.Get("Webhook-Timestamp"), header.Get("Webhook-Signature")
		if id == "" || ts == "" || sig == "" {
			return nil, fail("missing_standard_headers")
		}
		if !digits.MatchString(ts) {
			return nil, fail("bad_timestamp")
		}
		sent, _ := strconv.ParseInt(ts, 10, 64)
		now := time.Now
		if opts.Now != nil {
			now = opts.Now
		}
		tolerance := opts.Tolerance
		if tolerance == 0 {
			tolerance = 5 * time.Minute
		}
		if d := now().Unix() - sent; d > int64(tolerance/time.Second) || -d > int64(tolerance/time.Second) {
			return nil, fail("stale_timestamp")
		}
		signed := append([]byte(id+"."+ts+"."), body...)
		ok := false
		// Several space-separated signatures may come (the sender's secrets during a rotation).
		for _, s := range secrets {
			m := hmac.New(sha256.New, StandardKey(s))
			m.Write(signed)
			expected := []byte("v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)))
			for _, candidate := range strings.Split(sig, " ") {
				ok = hmac.Equal(expected, []byte(candidate)) || ok
			}
		}
		if !ok {
			return nil, fail("bad_standard_signature")
		}
	}
	var payload map[string]any
	if err := json.Unmarshal(body, &payload); err != nil {
		return nil, fail("body_not_raw")
	}
	return &Event{ID: id, Type: header.Get(EventHeader), Payload: payload}, nil
}
