package server

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/gozie/gozie/server/auth"
)

// codedError is a domain error as other packages define them: a code and a message that
// already carries it (or not).
type codedError struct{ code, msg string }

func (e *codedError) Error() string     { return e.msg }
func (e *codedError) ErrorCode() string { return e.code }

func TestErrorForCodedErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		err    error
		status int
		code   string
		msg    string
	}{
		{"server error as is", ErrInvalidParam("x"), 400, "E0302", "E0302: Invalid parameter [x]"},
		{"coded error", &codedError{"E0701", "E0701: XML schema error, bad (line 3)"}, 400, "E0701", "E0701: XML schema error, bad (line 3)"},
		{"wrapped coded error keeps its own message", fmt.Errorf("submitting: %w", &codedError{"E0401", "E0401: Missing configuration property [user.name]"}),
			400, "E0401", "E0401: Missing configuration property [user.name]"},
		{"message without code gets it", &codedError{"E0803", "IO error, disk full"}, 400, "E0803", "E0803: IO error, disk full"},
		{"job not found is 404", fmt.Errorf("x: %w", &codedError{"E0604", "E0604: Job does not exist [j]"}), 404, "E0604", "E0604: Job does not exist [j]"},
		{"action not found is 404", &codedError{"E0605", "E0605: Action does not exist [a]"}, 404, "E0605", "E0605: Action does not exist [a]"},
		{"empty code is a runtime error", &codedError{"", "boom"}, 500, "E0307", "E0307: Runtime error [boom]"},
		{"plain error is a runtime error", errors.New("boom"), 500, "E0307", "E0307: Runtime error [boom]"},
		{"server error wins over a coded cause", fmt.Errorf("%w: %w", ErrMissingParam("id"), &codedError{"E0604", "E0604: x"}),
			400, "E0305", "E0305: Missing parameter [id]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ErrorFor(tt.err)
			want := Error{Status: tt.status, Code: tt.code, Msg: tt.msg}
			if *got != want {
				t.Errorf("errorFor = %+v, want %+v", *got, want)
			}
		})
	}
}

func TestCodedErrorResponse(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{}, func(s *Server) {
		s.Handle(http.MethodGet, "/v2/job/{id}", auth.PermRead, func(w http.ResponseWriter, r *http.Request) error {
			return fmt.Errorf("reading job: %w", &codedError{"E0604", "E0604: Job does not exist [nope-W]"})
		})
	})
	resp, body := f.call(t, http.MethodGet, "/oozie/v2/job/nope-W")
	checkError(t, resp, body, 404, "E0604", "E0604: Job does not exist [nope-W]")
}
