package jobs

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

// Coordinator action filter keys of GET job/<coord id>?filter=.
const (
	filterNominalTime = "nominaltime" // with filterStatus
)

// parseCoordActionFilter reads Oozie's action filter of a coordinator's info,
// "status=KILLED;status!=WAITING;nominaltime>=2014-06-01T00:00Z", into f: repeated status=
// values are alternatives, status!= values are all excluded, and nominaltime comparisons
// (<, <=, >, >=) bound the nominal time. Anything else is 400 E0421.
func parseCoordActionFilter(s string, f *store.CoordActionFilter) error {
	bad := func(reason string) error {
		return server.NewError(http.StatusBadRequest, oozieerr.E0421, "Invalid job filter [%s], %s", s, reason)
	}
	for part := range strings.SplitSeq(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i := strings.IndexAny(part, "!<>=")
		if i <= 0 {
			return bad("filter elements must be in name<op>value form")
		}
		key := strings.ToLower(strings.TrimSpace(part[:i]))
		rest := part[i:]
		op := rest[:1]
		if len(rest) > 1 && rest[1] == '=' {
			op = rest[:2]
		}
		value := strings.TrimSpace(rest[len(op):])
		if value == "" {
			return bad("empty value for " + key)
		}
		switch key {
		case filterStatus:
			st := store.CoordActionStatus(strings.ToUpper(value))
			if !slices.Contains(store.CoordActionStatuses, st) {
				return bad("invalid status value " + value)
			}
			switch op {
			case "=":
				f.Statuses = append(f.Statuses, st)
			case "!=":
				f.NotStatuses = append(f.NotStatuses, st)
			default:
				return bad("status takes only = and !=")
			}
		case filterNominalTime:
			t, err := time.Parse(oozietime.Layout, value)
			if err != nil {
				return bad("invalid nominal time " + value + ", expected yyyy-MM-ddTHH:mmZ")
			}
			// Nominal times are whole minutes, so the exclusive and inclusive bounds
			// differ by one minute.
			switch op {
			case ">=":
				f.NominalFrom = later(f.NominalFrom, t)
			case ">":
				f.NominalFrom = later(f.NominalFrom, t.Add(time.Minute))
			case "<":
				f.NominalTo = earlier(f.NominalTo, t)
			case "<=":
				f.NominalTo = earlier(f.NominalTo, t.Add(time.Minute))
			default:
				return bad("nominaltime takes only <, <=, > and >=")
			}
		default:
			return bad("invalid filter name " + key)
		}
	}
	return nil
}

// later returns the later of a bound (zero: none) and t.
func later(bound, t time.Time) time.Time {
	if bound.IsZero() || t.After(bound) {
		return t
	}
	return bound
}

// earlier returns the earlier of a bound (zero: none) and t.
func earlier(bound, t time.Time) time.Time {
	if bound.IsZero() || t.Before(bound) {
		return t
	}
	return bound
}
