// Package smtpsink is an SMTP server for tests: it accepts mail on a random
// loopback port and keeps every message instead of delivering it, so that
// the email action (and anything else that sends mail) can be tested end to
// end with a real SMTP client.
//
// It speaks the part of RFC 5321 a submission client needs: EHLO/HELO,
// AUTH PLAIN (when Options.User is set; required then), MAIL FROM, RCPT TO,
// DATA with dot-unstuffing, RSET, NOOP and QUIT. Options.RejectRecipient
// makes RCPT TO refuse an address, for failure tests.
package smtpsink

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
)

// Message is one accepted message.
type Message struct {
	// From is the envelope sender (MAIL FROM).
	From string
	// To are the envelope recipients (RCPT TO), bcc included.
	To []string
	// Data is the message as sent (headers and body), dot-unstuffed, with
	// CRLF line ends.
	Data string
	// User is who authenticated, "" without AUTH.
	User string
}

// Options configures Start.
type Options struct {
	// User and Password, when User is set, are required with AUTH PLAIN
	// before MAIL FROM.
	User, Password string
	// RejectRecipient, when set, is an address RCPT TO refuses with 550.
	RejectRecipient string
}

// Sink is a running SMTP server.
type Sink struct {
	opts Options
	ln   net.Listener
	wg   sync.WaitGroup

	mu       sync.Mutex
	msgs     []Message
	changed  chan struct{} // closed and replaced when a message arrives
	conns    map[net.Conn]struct{}
	isClosed bool
}

// Start starts a sink on 127.0.0.1 with a random port.
func Start(opts Options) (*Sink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("smtpsink: %w", err)
	}
	s := &Sink{opts: opts, ln: ln, changed: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Addr returns host:port.
func (s *Sink) Addr() string { return s.ln.Addr().String() }

// Port returns the port.
func (s *Sink) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Messages returns the messages accepted so far, in order.
func (s *Sink) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Changed returns a channel that is closed when the next message arrives.
func (s *Sink) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// Close stops the sink and closes open connections.
func (s *Sink) Close() error {
	s.mu.Lock()
	s.isClosed = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

func (s *Sink) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.isClosed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			s.serve(c)
		}()
	}
}

// session is the state of one SMTP conversation.
type session struct {
	user string
	from string
	to   []string
	mail bool // MAIL FROM was given
}

func (s *Sink) serve(c net.Conn) {
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	reply := func(format string, args ...any) bool {
		fmt.Fprintf(w, format+"\r\n", args...)
		return w.Flush() == nil
	}
	if !reply("220 smtpsink ESMTP ready") {
		return
	}
	var sess session
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			auth := ""
			if s.opts.User != "" {
				auth = "\r\n250-AUTH PLAIN"
			}
			reply("250-smtpsink greets %s%s\r\n250 8BITMIME", arg, auth)
		case "HELO":
			reply("250 smtpsink")
		case "AUTH":
			reply(s.auth(&sess, arg))
		case "MAIL":
			switch addr, ok := pathArg(arg, "FROM:"); {
			case !ok:
				reply("501 5.5.4 syntax: MAIL FROM:<address>")
			case s.opts.User != "" && sess.user == "":
				reply("530 5.7.0 authentication required")
			default:
				sess.from, sess.to, sess.mail = addr, nil, true
				reply("250 2.1.0 ok")
			}
		case "RCPT":
			switch addr, ok := pathArg(arg, "TO:"); {
			case !ok:
				reply("501 5.5.4 syntax: RCPT TO:<address>")
			case !sess.mail:
				reply("503 5.5.1 MAIL first")
			case s.opts.RejectRecipient != "" && strings.EqualFold(addr, s.opts.RejectRecipient):
				reply("550 5.1.1 <%s>: recipient rejected", addr)
			default:
				sess.to = append(sess.to, addr)
				reply("250 2.1.5 ok")
			}
		case "DATA":
			if len(sess.to) == 0 {
				reply("503 5.5.1 RCPT first")
				continue
			}
			reply("354 end data with <CR><LF>.<CR><LF>")
			data, err := readData(r)
			if err != nil {
				return
			}
			s.keep(Message{From: sess.from, To: sess.to, Data: data, User: sess.user})
			sess.from, sess.to, sess.mail = "", nil, false
			reply("250 2.0.0 ok: queued")
		case "RSET":
			sess.from, sess.to, sess.mail = "", nil, false
			reply("250 2.0.0 ok")
		case "NOOP":
			reply("250 2.0.0 ok")
		case "QUIT":
			reply("221 2.0.0 bye")
			return
		default:
			reply("502 5.5.2 command not recognized")
		}
	}
}

// auth handles AUTH PLAIN with an initial response.
func (s *Sink) auth(sess *session, arg string) string {
	mech, resp, _ := strings.Cut(arg, " ")
	if !strings.EqualFold(mech, "PLAIN") || s.opts.User == "" {
		return "504 5.5.4 unrecognized authentication type"
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(resp))
	if err != nil {
		return "501 5.5.2 cannot decode the response"
	}
	parts := strings.Split(string(b), "\x00")
	if len(parts) != 3 || parts[1] != s.opts.User || parts[2] != s.opts.Password {
		return "535 5.7.8 authentication credentials invalid"
	}
	sess.user = parts[1]
	return "235 2.7.0 authentication successful"
}

// pathArg reads "FROM:<addr>" or "TO:<addr>" (with optional parameters).
func pathArg(arg, prefix string) (string, bool) {
	if len(arg) < len(prefix) || !strings.EqualFold(arg[:len(prefix)], prefix) {
		return "", false
	}
	rest := strings.TrimSpace(arg[len(prefix):])
	if !strings.HasPrefix(rest, "<") {
		return "", false
	}
	addr, _, ok := strings.Cut(rest[1:], ">")
	return addr, ok
}

var errTooLong = errors.New("smtpsink: message too long")

// maxData bounds one message.
const maxData = 32 << 20

// readData reads DATA up to the lone dot, undoing dot-stuffing.
func readData(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		if line == ".\r\n" || line == ".\n" {
			return b.String(), nil
		}
		line = strings.TrimPrefix(line, ".")
		if b.Len()+len(line) > maxData {
			return "", errTooLong
		}
		b.WriteString(line)
	}
}

func (s *Sink) keep(m Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, m)
	close(s.changed)
	s.changed = make(chan struct{})
}
