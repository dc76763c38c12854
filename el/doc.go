// Package el implements Oozie's expression language: the JSP EL 2.0 dialect (as implemented
// by Apache commons-el, which Oozie embeds) used in workflow, coordinator, bundle and SLA
// definitions, plus Oozie's basic functions and constants.
//
// # Texts and expressions
//
// A text mixes literal pieces and expressions written ${...}. Env.Eval evaluates a text: a
// text that is exactly one expression yields the expression's value with its type (int64,
// float64, bool, string, nil, a map, ...); any other text yields the concatenation of its
// pieces, each value converted with ToString (null becomes ""). Parse compiles a text once
// into a Template for repeated evaluation; Env.Eval keeps a bounded cache of parsed texts.
//
// # Literal "$" and "${"
//
// Commons-el has no escape for "${" in text: every "${" starts an expression, and "$" not
// followed by "{" is an ordinary character. So "$PATH", "$$" and "a$b" are literal,
// "$${x}" is "$" followed by the value of x, and "\${x}" is a backslash followed by the value
// of x (a backslash is not special outside expressions). This package does the same. A text
// that needs a literal "${" writes it as an expression producing it: ${'${'}x} yields
// "${x}". (This is why Oozie's documentation asks for $PATH rather than ${PATH} in shell
// environment variables.)
//
// # Syntax
//
// Inside ${...}, blanks (space, tab, CR, LF) separate tokens. Literals: integers (decimal
// digits, an int64), floating-point numbers (1.5, .5, 1., 1e3, 1.5E-3; a float64), strings in
// single or double quotes (inside '...' the escapes are \' and \\, inside "..." they are \"
// and \\; any other backslash sequence is an error), true, false and null. Operators, from
// loosest to tightest binding:
//
//	a ? b : c
//	|| or
//	&& and
//	== eq  != ne
//	< lt  > gt  <= le  >= ge
//	+ -
//	* / div % mod
//	! not  - (unary)  empty
//	a.b  a[b]  (indexing)
//
// Names are identifiers (letters, digits, "_" and "$", not starting with a digit; "#" may
// start one). A name followed by "(" is a function call; "ns:name(...)" calls a prefixed
// function such as wf:id() or coord:current(0). Other names are variables, resolved through
// Env.Vars; an unknown variable is an error (ErrUnknownVariable), as in Oozie. Functions are
// resolved at evaluation time through Env.Funcs, a Registry that other packages extend with
// their wf:, coord:, hadoop: ... functions; an unknown function is an error
// (ErrUnknownFunction).
//
// # Types and coercions
//
// The operators follow the coercion rules of JSP EL 2.0 exactly, because Oozie users depend
// on them:
//
//   - null is "" in a string context, 0 in a number context and false in a boolean context.
//   - + - * are numeric only, never string concatenation: ${"1" + "2"} is 3 and ${"a" + 1}
//     is an error. When either operand is a float64 or a string containing ".", "e" or "E"
//     the operation is floating point, otherwise it is on int64 (wrapping on overflow).
//   - / and div are always floating point: ${4 / 2} is 2.0, ${1 / 0} is Infinity.
//   - % and mod follow the rule of + (integer remainder by zero is ErrArithmetic).
//   - < > <= >= compare numbers numerically when either side is a number (a string operand
//     is parsed: ${"10" > 9} is true), strings lexicographically otherwise.
//   - == and != coerce as well: ${1 == "1"} and ${true == "TRUE"} are true, null equals only
//     null.
//   - && || ! and ?: coerce to boolean: null and "" are false, a string is true only when it
//     is "true" ignoring case; numbers are an error. && and || short-circuit.
//   - empty is true for null, "", and empty maps and lists.
//   - a[b] and a.b look up map entries (a missing key is null) and list elements (out of
//     range is null); indexing null is null.
//
// Numbers print as Java prints them: 2.0, 0.5, 1.0E7, 1.0E-4, Infinity. ToString, ToInt,
// ToFloat and ToBool expose the same rules to function authors.
//
// # Functions that stay unevaluated
//
// Oozie evaluates coordinator definitions in phases, and in early phases some functions
// (coord:current, coord:latest, coord:dataIn, ...) must survive as text for a later phase. A
// Func does that by returning the text of its own call, e.g. "${coord:current(-3)}" (Quote
// helps writing string arguments); the value then appears verbatim in the result and is
// evaluated when the text is evaluated again. Variables can echo themselves the same way, see
// DateEchoConstants.
//
// # Errors
//
// Every error is an *Error holding the whole text, the 0-based byte offset of the token or
// operation at fault, and a message; its Err field wraps ErrSyntax, ErrUnknownVariable,
// ErrUnknownFunction, ErrArgCount, ErrCoercion, ErrArithmetic or a function's own error.
//
// # Differences from Oozie
//
// Known, deliberate differences:
//
//   - Maps print and serialize (ToString, toJsonStr, toPropertiesStr, toConfigurationStr)
//     with keys sorted, where Java uses hash order; toConfigurationStr does not add the
//     aliases Hadoop's Configuration adds for deprecated keys.
//   - Regular expressions in replaceAll and appendAll are Go RE2 expressions, which accept
//     the common Java syntax but reject look-around and back-references; where Java and RE2
//     disagree on an empty match right after another match, RE2's rule applies.
//   - Doubles print with the shortest digits that identify them (Java 19 and later); older
//     JVMs sometimes print one more digit.
//   - Limits against hostile input: nesting deeper than 1000 levels is a syntax error, basic
//     functions refuse to build strings over 64 MiB or to process more than 2^20 regular
//     expression matches.
//   - Env.EvalBool accepts "TRUE" like EL's boolean coercion, where Oozie's decision node
//     compares the evaluated text with exactly "true".
package el
