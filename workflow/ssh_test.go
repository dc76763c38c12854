package workflow

import (
	"slices"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// sshAction is an ssh action node with the given <ssh> element.
func sshAction(ssh string) string {
	return `<start to="s"/><action name="s">` + ssh + `<ok to="end"/><error to="end"/></action><end name="end"/>`
}

// TestSSHActionParses: the ssh element of ssh-action 0.1 and 0.2 and of
// workflow 0.1 becomes an *SSH of type ssh, <args> and <arg> kept apart.
func TestSSHActionParses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, def string
		want      SSH
	}{
		{"0.1 args", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.1"><host>u@h</host><command>echo</command>` +
			`<args>"Hello Oozie!"</args><args>b</args><capture-output/></ssh>`)),
			SSH{Host: "u@h", Command: "echo", Args: []string{`"Hello Oozie!"`, "b"}, CaptureOutput: true}},
		{"0.2 arg", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.2"><host>h</host><command>ls</command>` +
			`<arg>-l</arg><arg>a b</arg></ssh>`)),
			SSH{Host: "h", Command: "ls", Arg: []string{"-l", "a b"}}},
		{"workflow 0.1", `<workflow-app xmlns="uri:oozie:workflow:0.1" name="w">` +
			sshAction(`<ssh><host>h</host><command>true</command><args>x</args></ssh>`) + `</workflow-app>`,
			SSH{Host: "h", Command: "true", Args: []string{"x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			app := mustLoad(t, tt.def)
			n := app.Node("s")
			s, ok := n.Action.Body.(*SSH)
			if !ok || n.Action.Type != "ssh" {
				t.Fatalf("body %T, type %q", n.Action.Body, n.Action.Type)
			}
			if s.Host != tt.want.Host || s.Command != tt.want.Command || !slices.Equal(s.Args, tt.want.Args) ||
				!slices.Equal(s.Arg, tt.want.Arg) || s.CaptureOutput != tt.want.CaptureOutput {
				t.Errorf("ssh %+v, want %+v", *s, tt.want)
			}
			body, err := ParseBody(n.Action.Raw)
			if b, ok := body.(*SSH); err != nil || !ok || b.Command != tt.want.Command {
				t.Errorf("ParseBody of the stored body: %T %v", body, err)
			}
		})
	}
}

// TestSSHActionSchema: what the ssh schemas refuse is E0701: a missing
// host or command, <arg> in 0.1 (and in workflow 0.1), <args> and <arg>
// mixed in 0.2, an element out of order.
func TestSSHActionSchema(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, def string }{
		{"no host", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.2"><command>c</command></ssh>`))},
		{"no command", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.2"><host>h</host></ssh>`))},
		{"arg in 0.1", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.1"><host>h</host><command>c</command><arg>a</arg></ssh>`))},
		{"args and arg", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.2"><host>h</host><command>c</command>` +
			`<args>a</args><arg>b</arg></ssh>`))},
		{"out of order", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.2"><command>c</command><host>h</host></ssh>`))},
		{"unknown version", wf(sshAction(`<ssh xmlns="uri:oozie:ssh-action:0.3"><host>h</host><command>c</command></ssh>`))},
		{"arg in workflow 0.1", `<workflow-app xmlns="uri:oozie:workflow:0.1" name="w">` +
			sshAction(`<ssh><host>h</host><command>c</command><arg>a</arg></ssh>`) + `</workflow-app>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.def))
			wantCode(t, err, oozieerr.E0701)
		})
	}
}
