package server

import "strings"

// SystemMode is Oozie's server mode, read and changed through admin/status.
type SystemMode string

// The system modes.
const (
	// ModeNormal serves every request.
	ModeNormal SystemMode = "NORMAL"
	// ModeNoWebService refuses REST calls that change anything (503 E0002), outside the
	// admin endpoints and routes registered with AllowInSafeMode; reads are still served.
	ModeNoWebService SystemMode = "NOWEBSERVICE"
	// ModeSafe refuses changing REST calls like ModeNoWebService and also tells the engine
	// (through Config.OnSystemModeChange and Server.SystemMode) to stop starting new work.
	ModeSafe SystemMode = "SAFEMODE"
)

// ParseSystemMode returns the mode named by s, ignoring case and surrounding blanks.
func ParseSystemMode(s string) (SystemMode, bool) {
	switch m := SystemMode(strings.ToUpper(strings.TrimSpace(s))); m {
	case ModeNormal, ModeNoWebService, ModeSafe:
		return m, true
	}
	return "", false
}
