package minidfs

import (
	"testing"

	"github.com/gozie/gozie/testenv/internal/ugi"
)

func TestRelPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{in: "/", want: "."},
		{in: "/a/b", want: "a/b"},
		{in: "//a///b/", want: "a/b"},
		{in: "/a/../b", wantErr: true},
		{in: "/..", wantErr: true},
		{in: "/a/./b", wantErr: true},
		{in: "relative", wantErr: true},
		{in: "", wantErr: true},
		{in: "/a\x00b", wantErr: true},
	}
	for _, tt := range tests {
		got, err := relPath(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("relPath(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
	for in, want := range map[string]string{"alice": "alice", "alice@TEST.LOCAL": "alice", "nn/host@R": "nn"} {
		if got := ugi.ShortName(in); got != want {
			t.Errorf("ugi.ShortName(%q) = %q, want %q", in, got, want)
		}
	}
}
