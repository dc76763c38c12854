package oozietime

import (
	"strconv"
	"strings"
	"time"
	// Java carries its own time-zone database; embedding Go's copy makes zone resolution
	// independent of the host's /usr/share/zoneinfo, as it is for Oozie.
	_ "time/tzdata"
)

// javaLegacyZones are Java's three-letter time-zone IDs that are not zone names of the tz
// database, with the zone Java gives them. They are accepted (Oozie only warns) and mean what
// Java means: PST observes daylight saving time, BST is Bangladesh, EST/MST/HST are fixed.
// CET, EET, MET, WET, GMT, UTC, UCT, PRC and ROK are tz database names and load directly.
var javaLegacyZones = map[string]string{
	"ACT": "Australia/Darwin",
	"AET": "Australia/Sydney",
	"AGT": "America/Argentina/Buenos_Aires",
	"ART": "Africa/Cairo",
	"AST": "America/Anchorage",
	"BET": "America/Sao_Paulo",
	"BST": "Asia/Dhaka",
	"CAT": "Africa/Harare",
	"CNT": "America/St_Johns",
	"CST": "America/Chicago",
	"CTT": "Asia/Shanghai",
	"EAT": "Africa/Addis_Ababa",
	"ECT": "Europe/Paris",
	"IET": "America/Indiana/Indianapolis",
	"IST": "Asia/Kolkata",
	"JST": "Asia/Tokyo",
	"MIT": "Pacific/Apia",
	"NET": "Asia/Yerevan",
	"NST": "Pacific/Auckland",
	"PLT": "Asia/Karachi",
	"PNT": "America/Phoenix",
	"PRT": "America/Puerto_Rico",
	"PST": "America/Los_Angeles",
	"SST": "Pacific/Guadalcanal",
	"VST": "Asia/Ho_Chi_Minh",
}

// javaFixedZones are the legacy IDs Java maps to fixed offsets (in hours).
var javaFixedZones = map[string]int{"EST": -5, "MST": -7, "HST": -10}

// ZoneError reports a time-zone ID that Oozie would not accept.
type ZoneError struct {
	// ID is the rejected ID after normalization.
	ID string
}

// Error returns Oozie's message, "Invalid TimeZone: <id>".
func (e *ZoneError) Error() string { return "Invalid TimeZone: " + e.ID }

// NormalizeZoneID applies Oozie's one rewrite of time-zone IDs: GMT±HHMM becomes GMT±HH:MM.
func NormalizeZoneID(id string) string {
	if len(id) == 8 && strings.HasPrefix(id, "GMT") && (id[3] == '+' || id[3] == '-') && allDigits(id[4:]) {
		return id[:6] + ":" + id[6:]
	}
	return id
}

// LoadZone resolves a time-zone ID the way Oozie does (DateUtils.getTimeZone): the ID is
// normalized (GMT+0530 → GMT+05:30), resolved like java.util.TimeZone, and must round-trip to
// the same ID, otherwise it is invalid. So tz database names (America/Los_Angeles, UTC, GMT,
// Etc/GMT+8), custom offsets written exactly as GMT±HH:MM, and Java's legacy three-letter IDs
// are valid, while GMT-7, PDT, UTZ and misspelled names are not.
func LoadZone(id string) (*time.Location, error) {
	norm := NormalizeZoneID(id)
	invalid := &ZoneError{ID: norm}
	if norm == "" || norm == "Local" || strings.TrimSpace(norm) != norm {
		return nil, invalid
	}
	if strings.HasPrefix(norm, "GMT+") || strings.HasPrefix(norm, "GMT-") {
		return customZone(norm, invalid)
	}
	if h, ok := javaFixedZones[norm]; ok {
		return time.FixedZone(norm, h*3600), nil
	}
	name := norm
	if target, ok := javaLegacyZones[norm]; ok {
		name = target
	}
	if strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, invalid
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, invalid
	}
	return loc, nil
}

// customZone resolves a Java custom ID, which round-trips only when written GMT±HH:MM with a
// non-zero offset (Java names a zero offset plain "GMT").
func customZone(id string, invalid error) (*time.Location, error) {
	if len(id) != 9 || id[6] != ':' || !allDigits(id[4:6]) || !allDigits(id[7:9]) {
		return nil, invalid
	}
	hh, _ := strconv.Atoi(id[4:6])
	mm, _ := strconv.Atoi(id[7:9])
	if hh > 23 || mm > 59 || hh+mm == 0 {
		return nil, invalid
	}
	secs := hh*3600 + mm*60
	if id[3] == '-' {
		secs = -secs
	}
	return time.FixedZone(id, secs), nil
}
