package coordinator

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/el"
)

// dirSeparator joins the URIs coord:dataIn and coord:dataOut return.
const dirSeparator = ","

// fnDataIn is coord:dataIn(name) in the action-start phase: the data-in's URIs joined by
// ",", itself unresolved while latest/future instances remain, or the URIs an input-logic
// node selected.
func fnDataIn(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	name := argString(args, 0)
	if v, ok := c.DataIn[name]; ok {
		if v.Unresolved {
			return echoCall("dataIn", "", "'"+name+"'"), nil
		}
		return strings.Join(v.URIs, dirSeparator), nil
	}
	if c.Logic != nil {
		uris, ok, err := c.Logic(name)
		if err != nil {
			return nil, err
		}
		if !ok {
			return echoCall("dataIn", "", "'"+name+"'"), nil
		}
		return uris, nil
	}
	return nil, nil
}

// fnDataOut is coord:dataOut(name): the data-out's URIs joined by ",".
func fnDataOut(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	v, ok := c.DataOut[argString(args, 0)]
	if !ok {
		return nil, nil
	}
	return strings.Join(v.URIs, dirSeparator), nil
}

// errNoExists is returned by coord:latest/future when the caller gave no existence check.
var errNoExists = errors.New("coord:latest and coord:future need an existence check")

// latestRange resolves coord:latestRange(a, b) (a ≤ b ≤ 0): walking back from the current
// instance at the actual time (or now) to the initial instance, but over at most
// MaxInstances instances, the existing instances from the b-th to the a-th newest one,
// newest first. Unresolved (and the call echoed) when the a-th newest existing instance is
// not found.
func (c *ELContext) latestRange(a, b int) (string, error) {
	what := echoCall("latestRange", ", ", fmt.Sprint(a), fmt.Sprint(b))
	if err := c.checkLookup(false, a, b, 0, what); err != nil {
		return "", err
	}
	ds := c.Dataset
	ref := c.Action.ActualTime
	if c.LatestUsesCurrentTime {
		ref = c.Now
	}
	c.resolved, c.resolvedURIs = false, nil
	k, ok := ds.CurrentIndex(ref)
	if !ok {
		return "", nil
	}
	var instances, uris []string
	available := 0
	for walked := int64(0); k >= 0 && walked < c.maxInstances(); k, walked = k-1, walked+1 {
		inst := ds.Instance(k)
		uri, found, err := c.instanceExists(inst)
		if err != nil {
			return "", err
		}
		if found {
			if available == a {
				c.resolved = true
				c.resolvedURIs = append(uris, uri)
				return strings.Join(append(instances, c.Format.Format(inst)), instanceSeparator), nil
			}
			if available <= b {
				instances = append(instances, c.Format.Format(inst))
				uris = append(uris, uri)
			}
			available--
		}
	}
	if a == b {
		return echoCall("latest", "", fmt.Sprint(a)), nil
	}
	return echoCall("latestRange", ", ", fmt.Sprint(a), fmt.Sprint(b)), nil
}

// futureRange resolves coord:futureRange(a, b, limit) (0 ≤ a ≤ b): walking forward from the
// current instance at the nominal time over at most limit+1 instances, the a-th to b-th
// existing ones, oldest first. Unresolved (and the call echoed) when the b-th is not found.
func (c *ELContext) futureRange(a, b, limit int) (string, error) {
	what := echoCall("futureRange", ", ", fmt.Sprint(a), fmt.Sprint(b), fmt.Sprint(limit))
	if err := c.checkLookup(true, a, b, limit, what); err != nil {
		return "", err
	}
	ds := c.Dataset
	c.resolved, c.resolvedURIs = false, nil
	k, ok := ds.CurrentIndex(c.Action.NominalTime)
	if !ok {
		return "", nil
	}
	var instances, uris []string
	available := 0
	for checked := 0; checked <= limit; checked, k = checked+1, k+1 {
		inst := ds.Instance(k)
		uri, found, err := c.instanceExists(inst)
		if err != nil {
			return "", err
		}
		if !found {
			continue
		}
		if available == b {
			c.resolved = true
			c.resolvedURIs = append(uris, uri)
			return strings.Join(append(instances, c.Format.Format(inst)), instanceSeparator), nil
		}
		if available >= a {
			instances = append(instances, c.Format.Format(inst))
			uris = append(uris, uri)
		}
		available++
	}
	if a == b {
		return echoCall("future", ", ", fmt.Sprint(a), fmt.Sprint(limit)), nil
	}
	return echoCall("futureRange", ", ", fmt.Sprint(a), fmt.Sprint(b), fmt.Sprint(limit)), nil
}

// instanceExists expands an instance's URI and checks it with the done-flag. It returns the
// URI without the done-flag, as <uris> and coord:dataIn show it.
func (c *ELContext) instanceExists(inst time.Time) (string, bool, error) {
	if c.Exists == nil {
		return "", false, errNoExists
	}
	uri, err := c.Dataset.URI(inst, c.Format)
	if err != nil {
		return "", false, err
	}
	ok, err := c.Exists(c.Dataset.WithDoneFlag(uri))
	if err != nil {
		return "", false, fmt.Errorf("checking %s: %w", c.Dataset.WithDoneFlag(uri), err)
	}
	return uri, ok, nil
}

// fnLatest is coord:latest(n), n ≤ 0, in the action-start phase.
func fnLatest(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	n, err := argInt("latest", args, 0)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, fmt.Errorf("coord:latest: n must be less than or equal to zero, got %d", n)
	}
	return c.latestRange(n, n)
}

// fnLatestRange is coord:latestRange(a, b), a and b ≤ 0.
func fnLatestRange(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	a, err := argInt("latestRange", args, 0)
	if err != nil {
		return nil, err
	}
	b, err := argInt("latestRange", args, 1)
	if err != nil {
		return nil, err
	}
	if a > 0 || b > 0 {
		return nil, fmt.Errorf("coord:latestRange: offsets must be less than or equal to zero, got %d and %d", a, b)
	}
	return c.latestRange(a, b)
}

// fnFuture is coord:future(n, limit), n ≥ 0, limit > 0.
func fnFuture(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	n, err := argInt("future", args, 0)
	if err != nil {
		return nil, err
	}
	limit, err := argInt("future", args, 1)
	if err != nil {
		return nil, err
	}
	if n < 0 || limit <= 0 {
		return nil, fmt.Errorf("coord:future: n must be at least zero and the limit greater than zero, got %d and %d", n, limit)
	}
	return c.futureRange(n, n, limit)
}

// fnFutureRange is coord:futureRange(a, b, limit).
func fnFutureRange(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	a, err := argInt("futureRange", args, 0)
	if err != nil {
		return nil, err
	}
	b, err := argInt("futureRange", args, 1)
	if err != nil {
		return nil, err
	}
	limit, err := argInt("futureRange", args, 2)
	if err != nil {
		return nil, err
	}
	if a < 0 || b < 0 || limit <= 0 {
		return nil, fmt.Errorf("coord:futureRange: offsets must be at least zero and the limit greater than zero")
	}
	return c.futureRange(a, b, limit)
}
