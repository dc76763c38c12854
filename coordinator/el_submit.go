package coordinator

import (
	"errors"
	"fmt"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozietime"
)

// frequencyFunc is coord:minutes/hours/days/months/endOfDays/endOfWeeks/endOfMonths in the
// submission phases: it checks n > 0, records the unit in the context and returns n×mult.
func frequencyFunc(name string, unit, endOf oozietime.Unit, mult int64) el.Func {
	return func(env *el.Env, args []any) (any, error) {
		c, err := context(env)
		if err != nil {
			return nil, err
		}
		n, err := argInt(name, args, 0)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return nil, fmt.Errorf("coord:%s: n must be greater than zero, got %d", name, n)
		}
		c.Unit, c.EndOf = unit, endOf
		return int64(n) * mult, nil
	}
}

// fnConf is coord:conf(name): the job configuration property, or null.
func fnConf(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	v, ok := c.Conf.Get(argString(args, 0))
	if !ok {
		return nil, nil
	}
	return v, nil
}

// fnUser is coord:user(): the job's user.
func fnUser(env *el.Env, _ []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	return c.User, nil
}

// fixed returns a function that always returns v: the dummies Oozie uses to validate
// arithmetic on values only known later (hoursInDay → "24" at submission).
func fixed(v any) el.Func {
	return func(*el.Env, []any) (any, error) { return v, nil }
}

// dataNameEcho is coord:dataIn/dataOut at submission: the name must be a declared data-in
// (or input-logic name) or data-out, and the call is echoed for the action-start phase.
func dataNameEcho(fn, kind string) el.Func {
	return func(env *el.Env, args []any) (any, error) {
		c, err := context(env)
		if err != nil {
			return nil, err
		}
		name := argString(args, 0)
		if c.DataNames[name] != kind {
			return nil, fmt.Errorf("%s name %s is not valid", kind, name)
		}
		return echoCall(fn, "", "'"+name+"'"), nil
	}
}

// errNoAction is returned by action functions evaluated outside an action.
var errNoAction = errors.New("this coordinator EL function needs an action and cannot be used here")

// errNoDataset is returned by instance functions evaluated outside a dataset.
var errNoDataset = errors.New("this coordinator EL function needs a dataset and can only be used in instance expressions")
