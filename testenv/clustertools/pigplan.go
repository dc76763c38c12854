package clustertools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/gozie/gozie/hadoop"
)

// pigRel is a relation an alias names at one point of the script: the
// statement that defines it, the relation it reads and its schema (nil
// when unknown: a LOAD or STREAM without AS).
type pigRel struct {
	stmt   *pigStmt
	in     *pigRel
	schema []pigField
}

// pigPlan is a compiled script: its relations, its STOREs in order and
// its SET properties.
type pigPlan struct {
	stores []*pigRel
	loads  []*pigStmt
	sets   map[string]string
}

// compilePig checks a parsed script as Pig's logical plan builder does:
// every alias used is defined before, every field name exists in its
// input's schema, and each statement's schema follows from its input.
func compilePig(stmts []*pigStmt) (*pigPlan, error) {
	plan := &pigPlan{sets: map[string]string{}}
	rels := map[string]*pigRel{}
	for _, s := range stmts {
		if s.op == "SET" {
			plan.sets[s.key] = s.val
			continue
		}
		r := &pigRel{stmt: s}
		if s.op != "LOAD" {
			in, ok := rels[s.input]
			if !ok {
				return nil, &pigError{code: pigErrUndefined, line: s.line, col: s.col, msg: "Undefined alias: " + s.input}
			}
			r.in = in
		}
		if err := r.bind(); err != nil {
			return nil, err
		}
		switch s.op {
		case "STORE":
			plan.stores = append(plan.stores, r)
		case "LOAD":
			plan.loads = append(plan.loads, s)
		}
		if s.alias != "" {
			rels[s.alias] = r
		}
	}
	return plan, nil
}

// bind resolves the statement's expressions against its input's schema
// and works out its own schema.
func (r *pigRel) bind() error {
	s := r.stmt
	switch s.op {
	case "LOAD", "STREAM":
		r.schema = s.schema
	case "FILTER":
		r.schema = r.in.schema
		return s.cond.resolve(r.in.schema)
	case "FOREACH":
		return r.bindForeach()
	}
	return nil
}

func (r *pigRel) bindForeach() error {
	known := true
	var schema []pigField
	for _, g := range r.stmt.gens {
		if g.star {
			if r.in.schema == nil {
				known = false
			}
			schema = append(schema, r.in.schema...)
			continue
		}
		if err := g.expr.resolve(r.in.schema); err != nil {
			return err
		}
		f := pigField{name: g.name, typ: g.typ}
		if ref, ok := g.expr.(*pigRef); ok && f.name == "" {
			f.name, f.typ = ref.fieldName(r.in.schema)
		}
		if f.typ == "" {
			f.typ = "bytearray"
		}
		schema = append(schema, f)
	}
	if known {
		r.schema = schema
	}
	return nil
}

// pigRun evaluates a compiled plan's relations, each once.
type pigRun struct {
	ctx     context.Context
	fsys    hadoop.FileSystem
	qualify func(string) string
	dir     string   // working directory of STREAM commands
	environ []string // their environment
	memo    map[*pigRel][]pigTuple
	read    int64 // records loaded
}

// eval returns the tuples of r.
func (x *pigRun) eval(r *pigRel) ([]pigTuple, error) {
	if ts, ok := x.memo[r]; ok {
		return ts, nil
	}
	var in []pigTuple
	if r.in != nil {
		var err error
		if in, err = x.eval(r.in); err != nil {
			return nil, err
		}
	}
	out, err := x.apply(r, in)
	if err != nil {
		return nil, err
	}
	x.memo[r] = out
	return out, nil
}

func (x *pigRun) apply(r *pigRel, in []pigTuple) ([]pigTuple, error) {
	s := r.stmt
	switch s.op {
	case "LOAD":
		return x.load(s)
	case "FILTER":
		var out []pigTuple
		for _, t := range in {
			v, err := s.cond.eval(t)
			if err != nil {
				return nil, err
			}
			if b, ok := v.(bool); ok && b {
				out = append(out, t)
			}
		}
		return out, nil
	case "FOREACH":
		return foreach(s, in)
	case "STREAM":
		return x.stream(s, in)
	}
	return in, nil // STORE writes its input
}

func foreach(s *pigStmt, in []pigTuple) ([]pigTuple, error) {
	out := make([]pigTuple, 0, len(in))
	for _, t := range in {
		var nt pigTuple
		for _, g := range s.gens {
			if g.star {
				nt = append(nt, t...)
				continue
			}
			v, err := g.expr.eval(t)
			if err != nil {
				return nil, err
			}
			if g.typ != "" {
				v = cast(v, g.typ)
			}
			nt = append(nt, v)
		}
		out = append(out, nt)
	}
	return out, nil
}

// load reads the files of a LOAD path (globs; a directory's visible
// files) line by line with PigStorage's delimiter, casting to the schema.
func (x *pigRun) load(s *pigStmt) ([]pigTuple, error) {
	files, err := visibleFiles(x.ctx, x.fsys, x.qualify(s.path))
	if err != nil {
		return nil, err
	}
	var out []pigTuple
	for _, f := range files {
		data, err := x.fsys.ReadFile(x.ctx, f)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			out = append(out, splitTuple(sc.Text(), s.delim, s.schema))
			x.read++
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// splitTuple splits a line into fields; with a schema the tuple has its
// width (missing fields null) and its types.
func splitTuple(line, delim string, schema []pigField) pigTuple {
	parts := strings.Split(line, delim)
	t := make(pigTuple, len(parts))
	for i, p := range parts {
		t[i] = p
	}
	if schema == nil {
		return t
	}
	out := make(pigTuple, len(schema))
	for i, f := range schema {
		out[i] = cast(fieldAt(t, i), f.typ)
	}
	return out
}

// stream runs STREAM ... THROUGH `command`: the tuples as tab-separated
// lines on its stdin, its stdout lines as the new tuples. A command that
// fails fails the task, as Pig's streaming does (ERROR 2055).
func (x *pigRun) stream(s *pigStmt, in []pigTuple) ([]pigTuple, error) {
	argv := splitArgs(s.command)
	if len(argv) == 0 {
		return nil, &pigError{code: pigErrStream, msg: "empty STREAM command"}
	}
	cmd := exec.CommandContext(x.ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = x.dir, x.environ
	cmd.Stdin = bytes.NewReader(formatTuples(in, "\t"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		code := -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return nil, &pigError{code: pigErrStream, msg: fmt.Sprintf("Received Error while processing the map plan: '%s' failed with exit status: %d %s",
			s.command, code, strings.TrimSpace(stderr.String()))}
	}
	var out []pigTuple
	sc := bufio.NewScanner(bytes.NewReader(outb))
	for sc.Scan() {
		out = append(out, splitTuple(sc.Text(), "\t", s.schema))
	}
	return out, sc.Err()
}

// formatTuples writes tuples as PigStorage does: fields joined by the
// delimiter, null as nothing, one tuple a line.
func formatTuples(ts []pigTuple, delim string) []byte {
	var b bytes.Buffer
	for _, t := range ts {
		for i, v := range t {
			if i > 0 {
				b.WriteString(delim)
			}
			b.WriteString(toString(v))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// visibleFiles lists the files of a path: globs expanded, directories
// listed without hidden (_ and .) entries. Nothing matching is Pig's
// ERROR 2118.
func visibleFiles(ctx context.Context, fsys hadoop.FileSystem, uri string) ([]string, error) {
	matches, err := fsys.Glob(ctx, uri)
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, &pigError{code: pigErrInput, msg: "Input path does not exist: " + uri}
	}
	var files []string
	for _, m := range matches {
		fi, err := fsys.Stat(ctx, m)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir {
			files = append(files, m)
			continue
		}
		entries, err := fsys.ReadDir(ctx, m)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir && !strings.HasPrefix(e.Name, "_") && !strings.HasPrefix(e.Name, ".") {
				files = append(files, strings.TrimSuffix(m, "/")+"/"+e.Name)
			}
		}
	}
	return files, nil
}
