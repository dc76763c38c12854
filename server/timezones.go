package server

import (
	"net/http"
	_ "time/tzdata" // zone data for every listed id, even where the OS has none
)

//go:generate go run gentimezones.go -o timezones_list.go

// zoneEntry is one tz database zone and its display name.
type zoneEntry struct {
	id      string
	display string
}

// Timezone is one entry of admin/available-timezones.
type Timezone struct {
	// DisplayName is "<abbreviation> (<id>)", e.g. "SST (Pacific/Midway)".
	DisplayName string `json:"timezoneDisplayName"`
	// ID is the time-zone id, e.g. "Pacific/Midway".
	ID string `json:"timezoneId"`
}

// gmtOffsetZones are the whole-hour offsets Oozie appends to its zone list.
var gmtOffsetZones = []string{
	"GMT-12:00", "GMT-11:00", "GMT-10:00", "GMT-09:00", "GMT-08:00", "GMT-07:00", "GMT-06:00",
	"GMT-05:00", "GMT-04:00", "GMT-03:00", "GMT-02:00", "GMT-01:00", "GMT+01:00", "GMT+02:00",
	"GMT+03:00", "GMT+04:00", "GMT+05:00", "GMT+06:00", "GMT+07:00", "GMT+08:00", "GMT+09:00",
	"GMT+10:00", "GMT+11:00", "GMT+12:00",
}

// AvailableTimezones returns the zones of admin/available-timezones: every tz database zone
// id in sorted order (without Etc/GMT±n, as Oozie), then the whole-hour GMT offsets.
func AvailableTimezones() []Timezone {
	out := make([]Timezone, 0, len(zoneList)+len(gmtOffsetZones))
	for _, z := range zoneList {
		out = append(out, Timezone{DisplayName: z.display + " (" + z.id + ")", ID: z.id})
	}
	for _, id := range gmtOffsetZones {
		out = append(out, Timezone{DisplayName: id + " (" + id + ")", ID: id})
	}
	return out
}

// availableTimezones serves GET admin/available-timezones.
func (s *Server) availableTimezones(w http.ResponseWriter, _ *http.Request) error {
	return WriteJSON(w, http.StatusOK, map[string][]Timezone{"available-timezones": s.timezones})
}
