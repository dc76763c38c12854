package coordinator

import (
	"errors"
	"fmt"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozieerr"
)

// ErrTooManyInstances is the cause of every error over Settings.MaxInstances: an event, or
// a range it names, with more dataset instances than the bound, or a coord:latest or
// coord:future that would look further than it.
var ErrTooManyInstances = errors.New("too many dataset instances")

// The instance bound is counted here and only here. Every instance function of the
// action-create and action-start phases measures what it names with arithmetic on its
// arguments (a range's span, a look-back's depth) and calls countInstances or checkLookup
// before it builds a list or checks a filesystem, so that coord:current(-3000000) costs a
// subtraction, not three million dates. The counter lives in the ELContext, which
// resolveEvent and the input check create for one event, so it also bounds one data-in or
// data-out as a whole.

// maxInstances returns the context's bound.
func (c *ELContext) maxInstances() int64 {
	if c.MaxInstances > 0 {
		return int64(c.MaxInstances)
	}
	return DefaultMaxInstances
}

// countInstances adds n instances named by what (an EL call or a range, for the message) to
// the context's count and fails with E1010 once the count is over the bound.
func (c *ELContext) countInstances(n int64, what string) error {
	if n <= 0 {
		return nil
	}
	c.instances += n
	if max := c.maxInstances(); c.instances > max || n > max {
		return withCause(&Error{Code: oozieerr.E1010,
			Msg: fmt.Sprintf("%s names %d dataset instances: more than the %d allowed for one data-in or data-out "+
				"(gozie.coord.max-instances)", what, c.instances, max)}, ErrTooManyInstances)
	}
	return nil
}

// span returns how many instances a..b holds (0 when b < a), without overflow.
func span(a, b int) int64 {
	if b < a {
		return 0
	}
	return int64(b) - int64(a) + 1
}

// checkLookup bounds coord:latestRange(a, b) and coord:futureRange(a, b, limit) (latest
// when future is false): the instances they name, and how far they look. coord:latest(a)
// walks back over at least -a+1 instances to find the a-th newest existing one, and
// coord:future over limit+1 instances ahead; both walks are bounded by MaxInstances (see
// latestRange and futureRange), so a call that needs more could never resolve and is
// refused at once.
func (c *ELContext) checkLookup(future bool, a, b, limit int, what string) error {
	max := c.maxInstances()
	depth := span(a, 0) // latest: from the a-th newest instance to the current one
	if future {
		depth = span(0, limit)
	}
	if depth > max {
		return withCause(&Error{Code: oozieerr.E1010,
			Msg: fmt.Sprintf("%s looks through %d dataset instances: more than the %d allowed (gozie.coord.max-instances)",
				what, depth, max)}, ErrTooManyInstances)
	}
	return c.countInstances(span(a, b), what)
}

// checkedEcho is the action-create form of coord:latest, latestRange, future and
// futureRange: the call is echoed for the input check to resolve, as Oozie does, once its
// bound is checked.
func checkedEcho(kind string) el.Func {
	sep := ", "
	if kind == "latest" {
		sep = ""
	}
	e := echo(kind, sep)
	return func(env *el.Env, args []any) (any, error) {
		c, err := context(env)
		if err != nil {
			return nil, err
		}
		ref, err := refFunc(kind)(env, args)
		if err != nil {
			return nil, err
		}
		if err := c.checkRef(ref.(instanceRef)); err != nil {
			return nil, err
		}
		return e(env, args)
	}
}

// checkRef checks the bound of a coord:latest or coord:future call kept as a reference.
func (c *ELContext) checkRef(r instanceRef) error {
	what := r.String()
	switch r.kind {
	case "latest":
		return c.checkLookup(false, r.n, r.n, 0, what)
	case "latestRange":
		return c.checkLookup(false, r.n, r.n2, 0, what)
	case "future", "futureRange":
		b, limit := r.n, 0
		if r.kind == "futureRange" {
			b = r.n2
		}
		if _, err := fmt.Sscan(r.limit, &limit); err != nil {
			return nil // not a number: the input check reports it
		}
		return c.checkLookup(true, r.n, b, limit, what)
	}
	return nil
}
