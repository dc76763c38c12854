package el_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/gozie/gozie/el"
)

func Example() {
	jobProps := map[string]string{"nameNode": "hdfs://nn:8020", "outputDir": "out"}
	wf := el.NewRegistry()
	wf.RegisterArity("wf:user", 0, func(*el.Env, []any) (any, error) { return "alice", nil })
	env := &el.Env{
		Funcs: el.Basic().With(wf),
		Vars:  el.ChainVars(el.MapVars(jobProps), el.MapVars(el.Constants())),
	}

	path, _ := env.EvalString("${nameNode}/user/${wf:user()}/${outputDir}")
	size, _ := env.Eval("${2 * GB}")
	half, _ := env.Eval("${1 / 2}")
	fmt.Println(path)
	fmt.Printf("%v (%T)\n", size, size)
	fmt.Printf("%v (%T)\n", half, half)
	// Output:
	// hdfs://nn:8020/user/alice/out
	// 2147483648 (int64)
	// 0.5 (float64)
}

func ExampleEnv_EvalBool() {
	env := &el.Env{Vars: el.MapVars(map[string]any{"records": int64(12)})}
	ok, _ := env.EvalBool("${records gt 10 and not empty records}")
	fmt.Println(ok)
	// Output: true
}

func ExampleParse() {
	tmpl, err := el.Parse("${concat(a, b)} costs ${price * 2}")
	if err != nil {
		panic(err)
	}
	for _, price := range []any{"1.25", int64(3)} {
		env := &el.Env{Vars: el.MapVars(map[string]any{"a": "x", "b": "y", "price": price})}
		s, _ := tmpl.Eval(env)
		fmt.Println(s)
	}
	// Output:
	// xy costs 2.5
	// xy costs 6
}

func ExampleError() {
	_, err := (&el.Env{}).Eval("${a +}")
	fmt.Println(err)
	fmt.Println(errors.Is(err, el.ErrSyntax))
	_, err = (&el.Env{}).Eval("${nameNode}/data")
	fmt.Println(errors.Is(err, el.ErrUnknownVariable))
	// Output:
	// EL error at position 5 in "${a +}": unexpected end of expression
	// true
	// true
}

func ExampleFunc_echo() {
	// In the coordinator's submission phase coord:current cannot be resolved yet, so it
	// returns its own call as text for the materialization phase.
	submit := el.NewRegistry()
	submit.RegisterArity("coord:current", 1, func(_ *el.Env, args []any) (any, error) {
		n, err := el.ToInt(args[0])
		if err != nil {
			return nil, err
		}
		return fmt.Sprintf("${coord:current(%d)}", n), nil
	})
	env := &el.Env{Funcs: submit}
	s, _ := env.EvalString("${coord:current(-1 * 2)}")
	fmt.Println(s)
	// Output: ${coord:current(-2)}
}

func ExampleEnv_Eval_timestamp() {
	env := &el.Env{Now: func() time.Time { return time.Date(2009, 9, 8, 23, 59, 0, 0, time.UTC) }}
	s, _ := env.Eval("started ${timestamp()}")
	fmt.Println(s)
	// Output: started 2009-09-08T23:59Z
}
