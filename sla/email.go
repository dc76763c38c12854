package sla

import (
	"context"
	"fmt"
	"net"
	"net/mail"
	"net/smtp"
	"strconv"
	"strings"
	"time"
)

// Email sends alert emails through an SMTP server for the events a
// registration's alert-events names (or DefaultEvents), to its
// alert-contact, when its alerts are enabled.
type Email struct {
	// Host and Port locate the SMTP server.
	Host string
	Port int
	// From is the sender address.
	From string
	// Username and Password, when Username is set, authenticate with AUTH
	// PLAIN (which net/smtp allows only over TLS or to localhost).
	Username, Password string
	// Timeout bounds one message's conversation; default 10s.
	Timeout time.Duration
	// DefaultEvents are alerted when a registration names none; default
	// DefaultAlertEvents.
	DefaultEvents string
	// Retry says how a failed send is retried.
	Retry Retry
}

// Name returns "email".
func (m *Email) Name() string { return "email" }

// Wants reports whether the registration asks for an alert of this event.
func (m *Email) Wants(n Notification) bool {
	def := m.DefaultEvents
	if def == "" {
		def = DefaultAlertEvents
	}
	return AlertsFor(n.SLA, n.Event.EventStatus, def)
}

// Notify sends the alert to every alert-contact address.
func (m *Email) Notify(ctx context.Context, n Notification) error {
	var to []string
	for _, a := range strings.Split(n.SLA.AlertContact, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		addr, err := mail.ParseAddress(a)
		if err != nil {
			return fmt.Errorf("SLA alert of %s: bad alert-contact %q: %w", n.SLA.ID, a, err)
		}
		to = append(to, addr.Address)
	}
	if len(to) == 0 {
		return nil
	}
	msg := alertMessage(m.From, to, n)
	return m.Retry.do(ctx, func(ctx context.Context) error { return m.send(ctx, to, msg) })
}

// send runs one SMTP conversation within the timeout.
func (m *Email) send(ctx context.Context, to []string, msg []byte) error {
	timeout := m.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	addr := net.JoinHostPort(m.Host, strconv.Itoa(m.Port))
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("SMTP %s: %w", addr, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	c, err := smtp.NewClient(conn, m.Host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("SMTP %s: %w", addr, err)
	}
	defer c.Close()
	if m.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", m.Username, m.Password, m.Host)); err != nil {
			return permanent{fmt.Errorf("SMTP %s: authentication: %w", addr, err)}
		}
	}
	if err := c.Mail(m.From); err != nil {
		return fmt.Errorf("SMTP %s: MAIL FROM: %w", addr, err)
	}
	for _, r := range to {
		if err := c.Rcpt(r); err != nil {
			return fmt.Errorf("SMTP %s: RCPT TO %s: %w", addr, r, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("SMTP %s: DATA: %w", addr, err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("SMTP %s: writing the message: %w", addr, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("SMTP %s: ending the message: %w", addr, err)
	}
	return c.Quit()
}

// alertMessage writes the alert: a subject naming the event, application and
// job, and a body with the figures of the event as it was judged.
func alertMessage(from string, to []string, n Notification) []byte {
	s, e := n.SLA, n.Event
	var b strings.Builder
	ts := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format("2006-01-02T15:04:05Z")
	}
	fmt.Fprintf(&b, "From: %s\r\n", from)
	fmt.Fprintf(&b, "To: %s\r\n", strings.Join(to, ", "))
	fmt.Fprintf(&b, "Subject: GOZIE - SLA %s (AppName=%s, JobID=%s)\r\n", e.EventStatus, oneLine(s.AppName), s.ID)
	fmt.Fprintf(&b, "Date: %s\r\n", e.EventTime.UTC().Format(time.RFC1123Z))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n")
	fmt.Fprintf(&b, "Status:\r\n  SLA Status - %s\r\n  Event - %s\r\n  Job Status - %s\r\n  Lateness - %d min\r\n\r\n",
		e.SLAStatus, e.EventStatus, e.JobStatus, int64(e.Lateness/time.Minute))
	fmt.Fprintf(&b, "Notification Message - %s\r\n\r\n", oneLine(s.NotificationMsg))
	fmt.Fprintf(&b, "Job Details:\r\n  App Name - %s\r\n  App Type - %s\r\n  User - %s\r\n  Job ID - %s\r\n  Parent Job ID - %s\r\n  Upstream Apps - %s\r\n\r\n",
		oneLine(s.AppName), s.AppType, s.User, s.ID, s.ParentID, oneLine(s.UpstreamApps))
	fmt.Fprintf(&b, "SLA Details:\r\n  Nominal Time - %s\r\n  Expected Start Time - %s\r\n  Actual Start Time - %s\r\n  Expected End Time - %s\r\n  Actual End Time - %s\r\n",
		ts(s.NominalTime), ts(e.ExpectedStart), ts(e.ActualStart), ts(e.ExpectedEnd), ts(e.ActualEnd))
	fmt.Fprintf(&b, "  Expected Duration (in mins) - %d\r\n  Actual Duration (in mins) - %d\r\n",
		mins(e.ExpectedDuration), mins(e.ActualDuration))
	return []byte(b.String())
}

// oneLine keeps a header or body line on one line.
func oneLine(s string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(s) }

func mins(ms int64) int64 {
	if ms < 0 {
		return -1
	}
	return ms / 60000
}
