package smtpsink_test

import (
	"net/smtp"
	"strings"
	"testing"

	"github.com/gozie/gozie/testenv/smtpsink"
)

func start(t *testing.T, opts smtpsink.Options) *smtpsink.Sink {
	t.Helper()
	s, err := smtpsink.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestKeepsMessages(t *testing.T) {
	t.Parallel()
	s := start(t, smtpsink.Options{})
	changed := s.Changed()
	body := "Subject: hi\r\n\r\n.leading dot\r\nlast line\r\n"
	if err := smtp.SendMail(s.Addr(), nil, "a@example.com", []string{"b@example.com", "c@example.com"}, []byte(body)); err != nil {
		t.Fatal(err)
	}
	<-changed
	if err := smtp.SendMail(s.Addr(), nil, "d@example.com", []string{"e@example.com"}, []byte("x\r\n")); err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages()
	if len(msgs) != 2 {
		t.Fatalf("%d messages", len(msgs))
	}
	if m := msgs[0]; m.From != "a@example.com" || strings.Join(m.To, ",") != "b@example.com,c@example.com" || m.Data != body {
		t.Errorf("first message %+v", m)
	}
	if msgs[1].From != "d@example.com" {
		t.Errorf("second message %+v", msgs[1])
	}
}

func TestAuthAndRejection(t *testing.T) {
	t.Parallel()
	s := start(t, smtpsink.Options{User: "u", Password: "p", RejectRecipient: "no@example.com"})
	msg := []byte("x\r\n")
	if err := smtp.SendMail(s.Addr(), nil, "a@example.com", []string{"b@example.com"}, msg); err == nil {
		t.Error("accepted mail without authentication")
	}
	if err := smtp.SendMail(s.Addr(), smtp.PlainAuth("", "u", "wrong", "127.0.0.1"), "a@example.com", []string{"b@example.com"}, msg); err == nil {
		t.Error("accepted a wrong password")
	}
	auth := smtp.PlainAuth("", "u", "p", "127.0.0.1")
	if err := smtp.SendMail(s.Addr(), auth, "a@example.com", []string{"no@example.com"}, msg); err == nil {
		t.Error("accepted the rejected recipient")
	}
	if err := smtp.SendMail(s.Addr(), auth, "a@example.com", []string{"b@example.com"}, msg); err != nil {
		t.Fatal(err)
	}
	if m := s.Messages(); len(m) != 1 || m[0].User != "u" {
		t.Errorf("messages %+v", m)
	}
}
