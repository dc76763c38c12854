// Package email runs Oozie's email action (uri:oozie:email-action:0.1 and
// 0.2) from the server: Start builds the message and sends it through the
// configured SMTP server, and the run is done when Start returns (external
// status "OK", as Oozie reports it).
//
// The message has the action's to, cc and bcc (comma-separated lists; bcc
// only goes into the envelope), subject and body, with content_type as its
// type (text/plain by default). Attachments (0.2) are comma-separated files
// on the cluster's filesystem, full URIs or absolute paths on the name node;
// they make the message multipart/mixed with the body as its first part. As
// in Oozie, a file:// attachment is refused (EM008) and, with attachments
// disabled, the body says that they were left out.
//
// Errors follow Oozie's EmailActionExecutor and end the action in ERROR: EM001
// no recipient, EM002 a bad sender address, EM004 a bad address in to, cc or
// bcc, EM007 a failure while sending (the server refused the message or
// could not be reached), EM008 an attachment that cannot be read.
package email

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// Oozie's error codes of the email action.
const (
	CodeNoRecipient = "EM001"
	CodeBadFrom     = "EM002"
	CodeBadAddress  = "EM004"
	CodeSend        = "EM007"
	CodeAttachment  = "EM008"
	// codeBadAction: the action body is not an email action.
	codeBadAction = "EMAIL_ACTION"
)

// externalOK is the external status of a sent message, as Oozie sets it.
const externalOK = "OK"

// attachmentsDisabled is added to the body when attachments are turned off.
const attachmentsDisabled = "\n\nNote: the attachments of this message were left out: the server does not send attachments."

// Defaults of Config.
const (
	DefaultPort    = 25
	DefaultFrom    = "gozie@localhost"
	DefaultTimeout = 10 * time.Second
)

// Config configures an Executor.
type Config struct {
	// Host and Port locate the SMTP server; default localhost:25.
	Host string
	Port int
	// From is the sender; default DefaultFrom.
	From string
	// Auth turns on AUTH PLAIN with Username and Password (over TLS, or to
	// localhost).
	Auth               bool
	Username, Password string
	// Timeout bounds one message's whole conversation; default
	// DefaultTimeout.
	Timeout time.Duration
	// Attachments allows <attachment>.
	Attachments bool
	// FS reads attachments by full URI; nil refuses them. The server gives a
	// *hadoop.Restricted, so that only the schemes of
	// gozie.filesystems.supported are reached (E0904 otherwise).
	FS hadoop.FileSystem
	// Clock dates the messages; nil means the system clock.
	Clock clock.Clock
	// Logger receives the executor's lines; nil discards them.
	Logger *slog.Logger
}

// Executor sends email actions' messages.
type Executor struct {
	cfg Config
}

var _ actions.Executor = (*Executor)(nil)

// New returns an executor.
func New(cfg Config) (*Executor, error) {
	if cfg.Host == "" {
		cfg.Host = "localhost"
	}
	if cfg.Port <= 0 {
		cfg.Port = DefaultPort
	}
	if cfg.From == "" {
		cfg.From = DefaultFrom
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Auth && cfg.Username == "" {
		return nil, errors.New("email: SMTP authentication needs a user name")
	}
	return &Executor{cfg: cfg}, nil
}

// Start sends the message; the run is done when it returns.
func (e *Executor) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	ctx = hadoop.AsUser(ctx, run.User) // attachments are read as the job's user
	body, err := workflow.ParseBody(run.Body)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, codeBadAction, "%s: reading the action: %w", run.ActionID, err)
	}
	m, ok := body.(*workflow.Email)
	if !ok {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, codeBadAction, "%s is not an email action", run.ActionID)
	}
	msg, err := e.compose(ctx, run, m)
	if err != nil {
		return actions.Status{}, err
	}
	if err := e.send(ctx, msg); err != nil {
		return actions.Status{}, actions.Errorf(actions.ActionError, CodeSend,
			"Encountered an error while sending the email message over SMTP: %v", err)
	}
	e.cfg.Logger.Info("sent the email", "action_id", run.ActionID, "recipients", len(msg.rcpt))
	return actions.Status{ExternalID: "-", ExternalStatus: externalOK, TrackerURI: "-", ConsoleURL: "-",
		Done: true, Outcome: workflow.OutcomeOK}, nil
}

// Check reports a sent message (Start does all the work).
func (e *Executor) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	return actions.Status{ExternalStatus: externalOK, Done: true, Outcome: workflow.OutcomeOK}, nil
}

// Kill does nothing: a message is sent or not.
func (e *Executor) Kill(ctx context.Context, run *actions.Attempt) error { return nil }

// message is a composed message: envelope and content.
type message struct {
	from string
	rcpt []string
	data []byte
}

// addresses parses a comma-separated address list.
func addresses(list string) ([]*mail.Address, error) {
	var out []*mail.Address
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		a, err := mail.ParseAddress(s)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// compose builds the message of an email action.
func (e *Executor) compose(ctx context.Context, run *actions.Attempt, m *workflow.Email) (*message, error) {
	if strings.TrimSpace(m.To) == "" {
		return nil, actions.Errorf(actions.ActionError, CodeNoRecipient, "No recipients were specified in the to-address field.")
	}
	from, err := mail.ParseAddress(e.cfg.From)
	if err != nil {
		return nil, actions.Errorf(actions.ActionError, CodeBadFrom, "Bad from address specified in gozie.email.smtp.from: %v", err)
	}
	var lists [3][]*mail.Address
	for i, l := range []string{m.To, m.CC, m.BCC} {
		if lists[i], err = addresses(l); err != nil {
			return nil, actions.Errorf(actions.ActionError, CodeBadAddress, "Bad address format in <to> or <cc> or <bcc>: %v", err)
		}
	}
	// Bcc recipients are in the envelope only.
	to, cc := lists[0], lists[1]
	msg := &message{from: from.Address}
	for _, l := range lists {
		for _, a := range l {
			msg.rcpt = append(msg.rcpt, a.Address)
		}
	}
	if len(msg.rcpt) == 0 {
		return nil, actions.Errorf(actions.ActionError, CodeNoRecipient, "No recipients were specified in the to-address field.")
	}

	var files []attachment
	text := strings.TrimSpace(m.Body)
	if strings.TrimSpace(m.Attachment) != "" {
		if e.cfg.Attachments {
			if files, err = e.attachments(ctx, run, m.Attachment); err != nil {
				return nil, err
			}
		} else {
			text += attachmentsDisabled
		}
	}
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", from.String())
	header("To", joinAddresses(to))
	if len(cc) > 0 {
		header("Cc", joinAddresses(cc))
	}
	header("Subject", mime.QEncoding.Encode("utf-8", strings.TrimSpace(m.Subject)))
	header("Date", e.cfg.Clock.Now().Format(time.RFC1123Z))
	header("Message-ID", "<"+rand.Text()+"@gozie>")
	header("MIME-Version", "1.0")
	contentType := strings.TrimSpace(m.ContentType)
	if contentType == "" {
		contentType = "text/plain"
	}
	if !strings.Contains(contentType, "charset") && strings.HasPrefix(contentType, "text/") {
		contentType += "; charset=UTF-8"
	}
	if len(files) == 0 {
		header("Content-Type", contentType)
		header("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		writeQP(&b, text)
		return msg.with(b.Bytes()), nil
	}
	boundary := "gozie-" + rand.Text()
	header("Content-Type", `multipart/mixed; boundary="`+boundary+`"`)
	b.WriteString("\r\n")
	fmt.Fprintf(&b, "--%s\r\nContent-Type: %s\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n", boundary, contentType)
	writeQP(&b, text)
	for _, f := range files {
		fmt.Fprintf(&b, "\r\n--%s\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n", boundary)
		fmt.Fprintf(&b, "Content-Disposition: attachment; filename=%s\r\n\r\n", strconv.Quote(f.name))
		enc := base64.StdEncoding.EncodeToString(f.data)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\r\n")
	}
	fmt.Fprintf(&b, "\r\n--%s--\r\n", boundary)
	return msg.with(b.Bytes()), nil
}

func (m *message) with(data []byte) *message {
	m.data = data
	return m
}

func joinAddresses(as []*mail.Address) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

// writeQP writes text quoted-printable with CRLF line ends.
func writeQP(b *bytes.Buffer, text string) {
	w := quotedprintable.NewWriter(b)
	w.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")))
	w.Close()
	b.WriteString("\r\n")
}

// attachment is one file to attach.
type attachment struct {
	name string
	data []byte
}

// maxAttachmentBytes bounds all attachments of one message together.
const maxAttachmentBytes = 16 << 20

// attachments reads the attachment files.
func (e *Executor) attachments(ctx context.Context, run *actions.Attempt, list string) ([]attachment, error) {
	var out []attachment
	total := 0
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		uri := p
		if hadoop.Scheme(p) == "" {
			if !strings.HasPrefix(p, "/") {
				return nil, actions.Errorf(actions.ActionError, CodeAttachment,
					"Encountered an error when attaching a file. A given file name is not valid: %s", p)
			}
			uri = root(run) + p
		}
		if e.cfg.FS == nil {
			return nil, actions.Errorf(actions.ActionError, CodeAttachment, "Encountered an error when attaching a file: no filesystem")
		}
		// A filesystem the server refuses (gozie.filesystems.supported) is
		// E0904 whatever is there; a local file is never attached, even
		// where file is allowed (Oozie's rule).
		if refused := actions.SchemeRefused(hadoop.CheckScheme(e.cfg.FS, uri)); refused != nil {
			return nil, refused
		}
		if hadoop.Scheme(uri) == "file" {
			return nil, actions.Errorf(actions.ActionError, CodeAttachment,
				"Encountered an error when attaching a file. A local file cannot be attached: %s", p)
		}
		data, err := e.cfg.FS.ReadFile(ctx, uri)
		if refused := actions.SchemeRefused(err); refused != nil {
			return nil, refused
		}
		if err != nil {
			return nil, actions.Errorf(actions.ActionError, CodeAttachment, "Encountered an error when attaching a file %s: %v", uri, err)
		}
		if total += len(data); total > maxAttachmentBytes {
			return nil, actions.Errorf(actions.ActionError, CodeAttachment, "Encountered an error when attaching a file: the attachments exceed %d bytes", maxAttachmentBytes)
		}
		out = append(out, attachment{name: path.Base(uri), data: data})
	}
	return out, nil
}

// root is scheme://authority of the run's name node or application.
func root(run *actions.Attempt) string {
	for _, u := range []string{run.NameNode, run.AppPath} {
		if scheme, rest, ok := strings.Cut(u, "://"); ok {
			authority, _, _ := strings.Cut(rest, "/")
			return scheme + "://" + authority
		}
	}
	return ""
}

// send delivers the message, bounded by the timeout: connect, EHLO,
// STARTTLS when offered, AUTH when configured, MAIL, RCPT, DATA, QUIT.
func (e *Executor) send(ctx context.Context, msg *message) error {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	addr := net.JoinHostPort(e.cfg.Host, strconv.Itoa(e.cfg.Port))
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	c, err := smtp.NewClient(conn, e.cfg.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return err
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(tlsConfig(e.cfg.Host)); err != nil {
			return err
		}
	}
	if e.cfg.Auth {
		if err := c.Auth(smtp.PlainAuth("", e.cfg.Username, e.cfg.Password, e.cfg.Host)); err != nil {
			return err
		}
	}
	if err := c.Mail(msg.from); err != nil {
		return err
	}
	for _, r := range msg.rcpt {
		if err := c.Rcpt(r); err != nil {
			return fmt.Errorf("recipient %s: %w", r, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg.data); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

func tlsConfig(host string) *tls.Config {
	return &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
}
