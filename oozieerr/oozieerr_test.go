package oozieerr

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"regexp"
	"strconv"
	"testing"
)

func TestErrorText(t *testing.T) {
	t.Parallel()
	cause := errors.New("boom")
	for _, tt := range []struct {
		err        *Error
		text, full string
	}{
		{New(E0302, "Invalid parameter [%s]", "x"), "Invalid parameter [x]", "E0302: Invalid parameter [x]"},
		{At(E1003, "coordinator-app/@start", "bad date"), "coordinator-app/@start: bad date", "E1003: coordinator-app/@start: bad date"},
		{Wrap(E0803, cause, "IO error"), "IO error: boom", "E0803: IO error: boom"},
		{WrapAt(E1004, "name", cause, "Unable to evaluate [%s]", "${x}"), "name: Unable to evaluate [${x}]: boom", "E1004: name: Unable to evaluate [${x}]: boom"},
		{&Error{Code: E0701, Node: "a", Msg: "XML schema error, bad", Line: 3}, "XML schema error, bad (line 3)", "E0701: XML schema error, bad (line 3)"},
	} {
		if got := tt.err.Error(); got != tt.full {
			t.Errorf("Error() = %q, want %q", got, tt.full)
		}
		if got := TextOf(tt.err); got != tt.text {
			t.Errorf("TextOf = %q, want %q", got, tt.text)
		}
	}
	if w := Wrap(E0803, fs.ErrNotExist, "reading"); !errors.Is(w, fs.ErrNotExist) {
		t.Error("Wrap loses its cause for errors.Is")
	}
}

// coder is a coded error of another package, which is not an *Error.
type coder struct{}

func (coder) Error() string     { return "Scheme [x] not supported" }
func (coder) ErrorCode() string { return string(E0904) }

func TestCodeOf(t *testing.T) {
	t.Parallel()
	inner := New(E1022, "Cannot delete")
	for _, tt := range []struct {
		err  error
		want Code
	}{
		{nil, ""},
		{errors.New("plain"), ""},
		{inner, E1022},
		{fmt.Errorf("change of coordinator c: %w", inner), E1022},
		{Wrap(E1018, inner, "rerun"), E1018}, // the outermost code
		{&BulkError{JobID: "0000001-x-W", Err: inner}, E1022},
		{fmt.Errorf("reading: %w", coder{}), E0904},
	} {
		if got := CodeOf(tt.err); got != tt.want {
			t.Errorf("CodeOf(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
	if got := TextOf(fmt.Errorf("ctx: %w", inner)); got != "ctx: E1022: Cannot delete" {
		t.Errorf("TextOf of a wrapped error = %q, want its whole text", got)
	}
}

func TestBulkError(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("bulk kill: %w", &BulkError{JobID: "0000001-x-W", Err: New(E0604, "Job does not exist [y]")})
	var be *BulkError
	if !errors.As(err, &be) || be.JobID != "0000001-x-W" {
		t.Fatalf("errors.As(%v) did not find the job", err)
	}
	if got := be.Error(); got != "job 0000001-x-W: E0604: Job does not exist [y]" {
		t.Errorf("Error() = %q", got)
	}
}

// TestAll checks that All lists each code once and that every code is spelled as its name.
func TestAll(t *testing.T) {
	t.Parallel()
	seen := map[Code]bool{}
	form := regexp.MustCompile(`^E\d{4}$`)
	for _, c := range All {
		if seen[c] {
			t.Errorf("code %s listed twice", c)
		}
		seen[c] = true
		if c != ELError && !form.MatchString(string(c)) {
			t.Errorf("code %q is not of Oozie's form", c)
		}
	}
}

// TestAllIsComplete reads codes.go and checks that All holds every constant it defines, so
// that server.ErrorFor's table test (which walks All) sees a new code.
func TestAllIsComplete(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	inAll := map[Code]bool{}
	for _, c := range All {
		inAll[c] = true
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			for _, v := range s.(*ast.ValueSpec).Values {
				lit, ok := v.(*ast.BasicLit)
				if !ok {
					continue
				}
				code, _ := strconv.Unquote(lit.Value)
				n++
				if !inAll[Code(code)] {
					t.Errorf("code %s is defined but not in All", code)
				}
			}
		}
	}
	if n != len(All) {
		t.Errorf("codes.go defines %d codes, All lists %d", n, len(All))
	}
}
