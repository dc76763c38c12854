package coordinator

import (
	"strconv"
	"strings"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozietime"
)

// fnDateOffset is coord:dateOffset(date, n, unit): date plus n units, computed in the
// processing time zone.
func fnDateOffset(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	t, err := c.Format.Parse(argString(args, 0))
	if err != nil {
		return nil, err
	}
	n, err := argInt("dateOffset", args, 1)
	if err != nil {
		return nil, err
	}
	unit, err := offsetUnit("dateOffset", argString(args, 2))
	if err != nil {
		return nil, err
	}
	return c.Format.Format(oozietime.AddUnits(t, unit, n, c.Format.Location())), nil
}

// fnDateTzOffset is coord:dateTzOffset(date, tz): the wall-clock time of date in tz, printed
// with the processing mask (so "2012-06-13T00:00Z" in PST prints as "2012-06-12T17:00Z").
func fnDateTzOffset(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	t, err := c.Format.Parse(argString(args, 0))
	if err != nil {
		return nil, err
	}
	loc, err := oozietime.LoadZone(argString(args, 1))
	if err != nil {
		return nil, err
	}
	return c.Format.FormatIn(t, loc), nil
}

// fnFormatTime is coord:formatTime(date, pattern) with a Java SimpleDateFormat pattern,
// applied in the processing time zone.
func fnFormatTime(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	t, err := c.Format.Parse(argString(args, 0))
	if err != nil {
		return nil, err
	}
	return oozietime.FormatJava(t.In(c.Format.Location()), argString(args, 1))
}

// fnEpochTime is coord:epochTime(date, millis): epoch milliseconds if millis is "true"
// (ignoring case), else epoch seconds, as a string.
func fnEpochTime(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	t, err := c.Format.Parse(argString(args, 0))
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(argString(args, 1), "true") {
		return strconv.FormatInt(t.UnixMilli(), 10), nil
	}
	return strconv.FormatInt(t.Unix(), 10), nil
}

// actionContext returns the context of a function that needs the action.
func actionContext(env *el.Env) (*ELContext, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	if c.Action == nil {
		return nil, errNoAction
	}
	return c, nil
}

// fnNominalTime is coord:nominalTime().
func fnNominalTime(env *el.Env, _ []any) (any, error) {
	c, err := actionContext(env)
	if err != nil {
		return nil, err
	}
	return c.Format.Format(c.Action.NominalTime), nil
}

// fnActualTime is coord:actualTime().
func fnActualTime(env *el.Env, _ []any) (any, error) {
	c, err := actionContext(env)
	if err != nil {
		return nil, err
	}
	return c.Format.Format(c.Action.ActualTime), nil
}

// fnActionID is coord:actionId().
func fnActionID(env *el.Env, _ []any) (any, error) {
	c, err := actionContext(env)
	if err != nil {
		return nil, err
	}
	return c.Action.ID, nil
}

// fnName is coord:name().
func fnName(env *el.Env, _ []any) (any, error) {
	c, err := actionContext(env)
	if err != nil {
		return nil, err
	}
	return c.Action.Name, nil
}
