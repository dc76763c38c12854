package server

import (
	"net/http"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// TestStatusOfEveryCode lists every code of oozieerr with the status a domain error carrying
// it is sent with; it fails when oozieerr gains a code that StatusOf (or this table) does not
// list, or when the two disagree.
func TestStatusOfEveryCode(t *testing.T) {
	t.Parallel()
	notFound := map[oozieerr.Code]bool{oozieerr.E0604: true, oozieerr.E0605: true}
	want := map[oozieerr.Code]int{}
	for _, code := range []oozieerr.Code{
		oozieerr.E0002, oozieerr.E0300, oozieerr.E0301, oozieerr.E0302, oozieerr.E0303,
		oozieerr.E0304, oozieerr.E0305, oozieerr.E0307, oozieerr.E0401, oozieerr.E0402,
		oozieerr.E0404, oozieerr.E0405, oozieerr.E0420, oozieerr.E0421, oozieerr.E0500,
		oozieerr.E0501, oozieerr.E0503, oozieerr.E0504, oozieerr.E0505, oozieerr.E0508,
		oozieerr.E0509, oozieerr.E0604, oozieerr.E0605, oozieerr.E0700, oozieerr.E0701,
		oozieerr.E0702, oozieerr.E0705, oozieerr.E0706, oozieerr.E0707, oozieerr.E0708,
		oozieerr.E0709, oozieerr.E0710, oozieerr.E0717, oozieerr.E0719, oozieerr.E0720, oozieerr.E0723,
		oozieerr.E0724, oozieerr.E0725, oozieerr.E0727, oozieerr.E0729, oozieerr.E0730,
		oozieerr.E0731, oozieerr.E0733, oozieerr.E0736, oozieerr.E0737, oozieerr.E0738,
		oozieerr.E0739, oozieerr.E0742, oozieerr.E0743, oozieerr.E0744, oozieerr.E0756,
		oozieerr.E0757, oozieerr.E0758, oozieerr.E0800, oozieerr.E0803, oozieerr.E0804,
		oozieerr.E0805, oozieerr.E0806, oozieerr.E0807, oozieerr.E0808, oozieerr.E0813,
		oozieerr.E0820, oozieerr.E0902, oozieerr.E0904, oozieerr.E0906, oozieerr.E1003,
		oozieerr.E1004, oozieerr.E1006, oozieerr.E1010, oozieerr.E1012, oozieerr.E1015,
		oozieerr.E1016, oozieerr.E1017, oozieerr.E1018, oozieerr.E1019, oozieerr.E1020,
		oozieerr.E1021, oozieerr.E1022, oozieerr.E1023, oozieerr.E1024, oozieerr.E1025,
		oozieerr.E1028, oozieerr.E1301, oozieerr.E1303, oozieerr.E1304, oozieerr.E1305,
		oozieerr.E1317, oozieerr.E1318, oozieerr.E1319, oozieerr.E1400, oozieerr.ELError,
	} {
		want[code] = http.StatusBadRequest
		if notFound[code] {
			want[code] = http.StatusNotFound
		}
	}
	for _, code := range oozieerr.All {
		w, listed := want[code]
		if !listed {
			t.Errorf("code %s of oozieerr.All has no status in this table", code)
			continue
		}
		got, ok := StatusOf(code)
		if !ok || got != w {
			t.Errorf("StatusOf(%s) = %d, %v; want %d, true", code, got, ok, w)
		}
		delete(want, code)
	}
	for code := range want {
		t.Errorf("code %s is in the table but not in oozieerr.All", code)
	}
	if _, ok := StatusOf("E9999"); ok {
		t.Error("StatusOf lists a code oozieerr does not define")
	}
}

// TestErrorForDomainError sends a coded domain error with its code, its own text and its
// code's status, whatever context is wrapped around it on the way up.
func TestErrorForDomainError(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err    error
		status int
		msg    string
	}{
		{oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", "x"), http.StatusNotFound, "E0604: Job does not exist [x]"},
		{&oozieerr.BulkError{JobID: "j", Err: oozieerr.At(oozieerr.E1003, "coordinator-app/@start", "bad")},
			http.StatusBadRequest, "E1003: coordinator-app/@start: bad"},
	} {
		e := ErrorFor(tt.err)
		if e.Status != tt.status || e.Code != string(oozieerr.CodeOf(tt.err)) || e.Msg != tt.msg {
			t.Errorf("ErrorFor(%v) = %d %s %q, want %d %q", tt.err, e.Status, e.Code, e.Msg, tt.status, tt.msg)
		}
	}
}
