package coordinator

import (
	"fmt"
	"math"
	"strings"

	"github.com/gozie/gozie/el"
)

// argInt converts argument i to an int as EL coerces a Java int parameter.
func argInt(fn string, args []any, i int) (int, error) {
	n, err := el.ToInt(args[i])
	if err != nil {
		return 0, fmt.Errorf("coord:%s argument %d: %w", fn, i+1, err)
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0, fmt.Errorf("coord:%s argument %d: %d is out of range", fn, i+1, n)
	}
	return int(n), nil
}

// argString converts argument i to a string as EL does.
func argString(args []any, i int) string { return el.ToString(args[i]) }

// echoCall renders a call that stays unresolved: "${coord:name(args)}", with the arguments
// joined by sep. This is the text Oozie's echo functions produce, byte for byte, so that later
// phases and users see the same placeholders (${coord:latest(-1)}, ${coord:future(1, 10)}).
func echoCall(name, sep string, args ...string) string {
	return "${coord:" + name + "(" + strings.Join(args, sep) + ")}"
}

// echo returns a function that renders its call unresolved, joining its arguments (converted
// to strings) with sep; quote wraps the arguments whose index is listed in single quotes.
func echo(name, sep string, quote ...int) el.Func {
	return func(_ *el.Env, args []any) (any, error) {
		parts := make([]string, len(args))
		for i := range args {
			parts[i] = argString(args, i)
			for _, q := range quote {
				if q == i {
					parts[i] = "'" + parts[i] + "'"
				}
			}
		}
		return echoCall(name, sep, parts...), nil
	}
}
