package email_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/email"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/smtpsink"
	"github.com/gozie/gozie/workflow"
)

func sink(t *testing.T, opts smtpsink.Options) *smtpsink.Sink {
	t.Helper()
	s, err := smtpsink.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func executor(t *testing.T, s *smtpsink.Sink, adjust func(*email.Config)) *email.Executor {
	t.Helper()
	cfg := email.Config{Host: "127.0.0.1", Port: s.Port(), From: "Gozie <gozie@example.com>", Attachments: true,
		Clock: clock.NewFake(time.Date(2025, 3, 9, 12, 0, 0, 0, time.UTC)), Timeout: 5 * time.Second}
	if adjust != nil {
		adjust(&cfg)
	}
	e, err := email.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func run(body string) *actions.Attempt {
	return &actions.Attempt{ActionID: "0000001-250101000000000-gozie-W@mail", JobID: "0000001-250101000000000-gozie-W",
		Node: "mail", Type: "email", Key: "k", User: "alice", Body: body}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSendsMessage(t *testing.T) {
	t.Parallel()
	s := sink(t, smtpsink.Options{})
	e := executor(t, s, nil)
	st, err := e.Start(ctxT(t), run(`<email xmlns="uri:oozie:email-action:0.2">
  <to>bob@example.com, Carol &lt;carol@example.com&gt;</to><cc>dave@example.com</cc><bcc>eve@example.com</bcc>
  <subject>Nightly load: done ✓</subject><body>Rows: 42
second line</body></email>`))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Done || st.Outcome != workflow.OutcomeOK || st.ExternalStatus != "OK" {
		t.Fatalf("status %+v", st)
	}
	msgs := s.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.From != "gozie@example.com" || strings.Join(m.To, ",") != "bob@example.com,carol@example.com,dave@example.com,eve@example.com" {
		t.Errorf("envelope %s → %v", m.From, m.To)
	}
	parsed, err := mail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(parsed.Header.Get("Subject"))
	if err != nil || subject != "Nightly load: done ✓" {
		t.Errorf("subject %q, %v", subject, err)
	}
	if got := parsed.Header.Get("Cc"); got != "<dave@example.com>" {
		t.Errorf("Cc %q", got)
	}
	if strings.Contains(m.Data, "eve@example.com") {
		t.Error("the bcc recipient is in the message")
	}
	if got := parsed.Header.Get("Date"); got != "Sun, 09 Mar 2025 12:00:00 +0000" {
		t.Errorf("Date %q", got)
	}
	if ct := parsed.Header.Get("Content-Type"); ct != "text/plain; charset=UTF-8" {
		t.Errorf("Content-Type %q", ct)
	}
	body, _ := io.ReadAll(parsed.Body)
	if !strings.Contains(string(body), "Rows: 42\r\nsecond line") {
		t.Errorf("body %q", body)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	s := sink(t, smtpsink.Options{RejectRecipient: "nobody@example.com"})
	tests := []struct {
		name   string
		body   string
		adjust func(*email.Config)
		code   string
	}{
		{"no recipient", `<email xmlns="uri:oozie:email-action:0.1"><to> , </to><subject>s</subject><body>b</body></email>`, nil, "EM001"},
		{"bad address", `<email xmlns="uri:oozie:email-action:0.1"><to>not an address</to><subject>s</subject><body>b</body></email>`, nil, "EM004"},
		{"bad from", `<email xmlns="uri:oozie:email-action:0.1"><to>a@example.com</to><subject>s</subject><body>b</body></email>`,
			func(c *email.Config) { c.From = "@@" }, "EM002"},
		{"refused recipient", `<email xmlns="uri:oozie:email-action:0.1"><to>nobody@example.com</to><subject>s</subject><body>b</body></email>`, nil, "EM007"},
		{"no server", `<email xmlns="uri:oozie:email-action:0.1"><to>a@example.com</to><subject>s</subject><body>b</body></email>`,
			func(c *email.Config) { c.Port = 1 }, "EM007"},
		{"local attachment", `<email xmlns="uri:oozie:email-action:0.2"><to>a@example.com</to><subject>s</subject><body>b</body>` +
			`<attachment>file:///etc/hostname</attachment></email>`, nil, "EM008"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := executor(t, s, tt.adjust).Start(ctxT(t), run(tt.body))
			var ee *actions.ExecError
			if !errors.As(err, &ee) || ee.Code != tt.code || ee.Kind != actions.ActionError {
				t.Errorf("Start: %v, want an action error %s", err, tt.code)
			}
		})
	}
	if n := len(s.Messages()); n != 0 {
		t.Errorf("%d messages accepted", n)
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	s := sink(t, smtpsink.Options{User: "gozie", Password: "s3cret"})
	body := `<email xmlns="uri:oozie:email-action:0.1"><to>a@example.com</to><subject>s</subject><body>b</body></email>`
	if _, err := executor(t, s, nil).Start(ctxT(t), run(body)); err == nil {
		t.Fatal("sent without authenticating to a server that requires it")
	}
	e := executor(t, s, func(c *email.Config) { c.Auth, c.Username, c.Password = true, "gozie", "s3cret" })
	if _, err := e.Start(ctxT(t), run(body)); err != nil {
		t.Fatal(err)
	}
	if m := s.Messages(); len(m) != 1 || m[0].User != "gozie" {
		t.Errorf("messages %+v", m)
	}
}

func TestAttachments(t *testing.T) {
	t.Parallel()
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	if err := dfs.CreateHome("alice"); err != nil { // as the cluster's administrator does
		t.Fatal(err)
	}
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	if err := fs.WriteFile(ctxT(t), dfs.URI()+"/user/alice/report.csv", []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := sink(t, smtpsink.Options{})
	r := run(`<email xmlns="uri:oozie:email-action:0.2"><to>a@example.com</to><subject>report</subject>` +
		`<body>&lt;b&gt;see attached&lt;/b&gt;</body><content_type>text/html</content_type>` +
		`<attachment>/user/alice/report.csv</attachment></email>`)
	r.NameNode = dfs.URI()
	if _, err := executor(t, s, func(c *email.Config) { c.FS = fs }).Start(ctxT(t), r); err != nil {
		t.Fatal(err)
	}
	parsed, err := mail.ReadMessage(strings.NewReader(s.Messages()[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(parsed.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" {
		t.Fatalf("Content-Type %q, %v", parsed.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(parsed.Body, params["boundary"])
	first, err := mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(first)
	if first.Header.Get("Content-Type") != "text/html; charset=UTF-8" || !strings.Contains(string(text), "<b>see attached</b>") {
		t.Errorf("body part %q: %q", first.Header.Get("Content-Type"), text)
	}
	second, err := mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(base64.NewDecoder(base64.StdEncoding, second))
	if err != nil || second.FileName() != "report.csv" || string(data) != "a,b\n1,2\n" {
		t.Errorf("attachment %q: %q", second.FileName(), data)
	}

	// With attachments disabled the message goes without them, and says so.
	s2 := sink(t, smtpsink.Options{})
	if _, err := executor(t, s2, func(c *email.Config) { c.FS, c.Attachments = fs, false }).Start(ctxT(t), r); err != nil {
		t.Fatal(err)
	}
	if d := s2.Messages()[0].Data; strings.Contains(d, "multipart") || !strings.Contains(d, "attachments of this message were left out") {
		t.Errorf("message without attachments:\n%s", d)
	}
}

// TestServerDiskRefused: with the server's default filesystems (hdfs only),
// an attachment on the server's own disk, in any spelling, fails the action
// with E0904 and the refusal's message, the same for a file that exists and
// one that does not, and nothing is sent. Where an administrator allows file,
// a local file is still never attached (Oozie's EM008).
func TestServerDiskRefused(t *testing.T) {
	t.Parallel()
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{User: "alice"}) // default file:///
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	restricted := func(schemes ...string) func(*email.Config) {
		return func(c *email.Config) {
			p, err := hadoop.NewSchemePolicy(schemes, res.DefaultFS())
			if err != nil {
				t.Fatal(err)
			}
			c.FS = p.Restrict(res)
		}
	}
	s := sink(t, smtpsink.Options{})
	attach := func(a string) *actions.Attempt {
		return run(`<email xmlns="uri:oozie:email-action:0.2"><to>a@example.com</to><subject>s</subject><body>b</body>` +
			`<attachment>` + a + `</attachment></email>`)
	}
	e := executor(t, s, restricted("hdfs"))
	for _, uri := range []string{"FILE://" + secret, "file://" + secret, "File:" + secret, "file:///does/not/exist"} {
		_, err := e.Start(ctxT(t), attach(uri))
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Code != "E0904" || ee.Kind != actions.ActionError {
			t.Errorf("attachment %s: %v, want an action error E0904", uri, err)
			continue
		}
		if want := "Scheme [file] not supported in uri [" + uri + "]"; ee.Err.Error() != want {
			t.Errorf("attachment %s: message %q, want %q", uri, ee.Err, want)
		}
	}
	// A bare path on a file: name node is on the server's disk too.
	r := attach(secret)
	r.NameNode = "file:///"
	if _, err := e.Start(ctxT(t), r); !strings.Contains(fmt.Sprint(err), "E0904") {
		t.Errorf("bare attachment on a file: name node: %v, want E0904", err)
	}
	withFile := executor(t, s, restricted("hdfs", "file"))
	if _, err := withFile.Start(ctxT(t), attach("FILE://"+secret)); !strings.Contains(fmt.Sprint(err), "EM008") {
		t.Errorf("local attachment with file allowed: %v, want EM008", err)
	}
	if n := len(s.Messages()); n != 0 {
		t.Errorf("%d messages sent", n)
	}
}
