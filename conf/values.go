package conf

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ParseDuration parses a non-negative duration in Go syntax ("30s", "1h30m", "120m") with
// an optional leading whole number of days ("7d", "1d12h"), since purge ages and similar
// settings are naturally given in days.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("invalid duration %q", s)
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		n, err := strconv.ParseUint(s[:i], 10, 16)
		if err != nil {
			return 0, bad
		}
		days = time.Duration(n) * 24 * time.Hour
		s = s[i+1:]
		if s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, bad
	}
	return days + d, nil
}

// parseInt parses a decimal integer of at least min.
func parseInt(s string, min int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid integer %q", s)
	}
	if n < min {
		return 0, fmt.Errorf("must be at least %d, got %d", min, n)
	}
	return n, nil
}

// parseBool parses "true" or "false" in any case.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("invalid boolean %q (want true or false)", s)
}

// processingTimezonePattern is what Oozie accepts for oozie.processing.timezone.
var processingTimezonePattern = regexp.MustCompile(`^UTC$|^GMT[+-]\d{4}$`)

// checkProcessingTimezone accepts UTC or GMT±HHMM, as Oozie does.
func checkProcessingTimezone(s string) error {
	if !processingTimezonePattern.MatchString(s) {
		return fmt.Errorf("invalid processing time zone %q (want UTC or GMT+HHMM / GMT-HHMM)", s)
	}
	return nil
}

// checkHostPort accepts "host:port" and ":port" with a numeric port.
func checkHostPort(s string) error {
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf("invalid address %q (want host:port)", s)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("invalid port in address %q", s)
	}
	return nil
}

// checkHTTPURL accepts an absolute http or https URL, or the empty string when allowEmpty.
func checkHTTPURL(allowEmpty bool) func(string) error {
	return func(s string) error {
		if s == "" && allowEmpty {
			return nil
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("invalid URL %q (want http://host:port/...)", s)
		}
		return nil
	}
}

// checkDBURL accepts "sqlite:<path>" and "postgres://..." / "postgresql://..." URLs.
func checkDBURL(s string) error {
	switch {
	case strings.HasPrefix(s, "sqlite:") && len(s) > len("sqlite:"):
		return nil
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		if _, err := url.Parse(s); err != nil {
			return fmt.Errorf("invalid database URL: %w", err)
		}
		return nil
	}
	return fmt.Errorf("invalid database URL %q (want sqlite:<path> or postgres://...)", RedactPassword(s))
}

// oneOf accepts exactly one of the given words.
func oneOf(words ...string) func(string) error {
	return func(s string) error {
		for _, w := range words {
			if s == w {
				return nil
			}
		}
		return fmt.Errorf("invalid value %q (want one of %s)", s, strings.Join(words, ", "))
	}
}

// checkSystemID accepts a non-empty id without blanks or '@', which separates job and action
// ids.
func checkSystemID(s string) error {
	if s == "" || strings.ContainsAny(s, " \t\r\n@") {
		return fmt.Errorf("invalid system id %q (non-empty, no blanks or '@')", s)
	}
	return nil
}

// checkSLAEvents accepts a comma-separated list of SLA alert event names.
func checkSLAEvents(s string) error {
	for _, e := range strings.Split(s, ",") {
		switch strings.TrimSpace(e) {
		case "START_MISS", "END_MISS", "DURATION_MISS":
		default:
			return fmt.Errorf("invalid SLA alert event %q (want START_MISS, END_MISS, DURATION_MISS)", strings.TrimSpace(e))
		}
	}
	return nil
}

// parseLogLevel maps debug, info, warn and error to slog levels.
func parseLogLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("invalid log level %q (want debug, info, warn or error)", s)
}

// RedactPassword hides the password of a URL ("postgres://u:secret@h/db" →
// "postgres://u:xxxxx@h/db") or of a key/value connection string ("password=secret" →
// "password=xxxxx"); other text is returned unchanged.
func RedactPassword(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			return u.Redacted()
		}
		return s
	}
	fields := strings.Fields(s)
	changed := false
	for i, f := range fields {
		if k, _, ok := strings.Cut(f, "="); ok && strings.EqualFold(k, "password") {
			fields[i] = k + "=xxxxx"
			changed = true
		}
	}
	if changed {
		return strings.Join(fields, " ")
	}
	return s
}
