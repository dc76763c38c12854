package conf

import (
	"testing"
	"time"
)

func TestEmailAndHiveSettings(t *testing.T) {
	t.Parallel()
	none := func(string) (string, bool) { return "", false }
	s, err := Load(Sources{ConfigDir: t.TempDir(), LookupEnv: none, UserName: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	want := Email{Host: "localhost", Port: 25, From: "gozie@localhost", Timeout: 10 * time.Second, Attachments: true}
	if s.Email != want || s.Hadoop.DefaultHiveJDBCURL != "" {
		t.Errorf("defaults %+v %q, want %+v", s.Email, s.Hadoop.DefaultHiveJDBCURL, want)
	}
	s, err = Load(Sources{ConfigDir: t.TempDir(), LookupEnv: none, Flags: map[string]string{
		"gozie.email.smtp.host": "smtp.example.com", "gozie.email.smtp.port": "587", "gozie.email.smtp.auth": "true",
		"gozie.email.smtp.username": "gozie", "gozie.email.smtp.password": "s3cret",
		"gozie.actions.default.hive2.jdbc.url": "jdbc:hive2://hs2:10000/default",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Email.Host != "smtp.example.com" || s.Email.Port != 587 || !s.Email.Auth || s.Email.Password != "s3cret" ||
		s.Hadoop.DefaultHiveJDBCURL != "jdbc:hive2://hs2:10000/default" {
		t.Errorf("loaded %+v %q", s.Email, s.Hadoop.DefaultHiveJDBCURL)
	}
	if d := s.Dump(); d["gozie.email.smtp.password"] != "xxxxx" || d["gozie.email.smtp.username"] != "gozie" {
		t.Errorf("Dump shows the password as %q", d["gozie.email.smtp.password"])
	}
	for key, bad := range map[string]string{"gozie.email.smtp.port": "0", "gozie.actions.default.hive2.jdbc.url": "jdbc:mysql://x/y",
		"gozie.email.smtp.timeout": "x"} {
		if _, err := Load(Sources{ConfigDir: t.TempDir(), LookupEnv: none, Flags: map[string]string{key: bad}}); err == nil {
			t.Errorf("%s=%q accepted", key, bad)
		}
	}
}
