package jobs

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
)

// Namespaces of the generated applications, the ones Oozie writes: the
// workflow (and map-reduce) in workflow 0.2, the hive action in hive 0.5.
const (
	proxyWorkflowNS = "uri:oozie:workflow:0.2"
	proxyHiveNS     = "uri:oozie:hive-action:0.5"
)

// ProxyHiveScript is the file name of a proxy hive job's script in its
// application directory, the name Oozie gives it in the generated <script>.
const ProxyHiveScript = "dummy.hive"

// maxProxyListSize bounds the <key>.size of an option or parameter list, so
// that a huge count cannot make the server loop; real lists are short.
const maxProxyListSize = 10000

// proxySkipped are the properties a proxy map-reduce job's <configuration>
// leaves out: the ones that became <job-tracker> and <name-node>, the user
// (the launcher sets it), the library path and the file lists (which become
// <file> and <archive>). Oozie skips the same keys, old and new names.
var proxySkipped = map[string]bool{
	PropResourceManager: true, PropJobTracker: true, PropJobTracker2: true,
	PropNameNode: true, PropNameNode2: true,
	PropUser: true, propMapReduceUser: true,
	PropLibPath: true, PropFiles: true, PropArchives: true,
}

// proxyApp is a generated proxy application.
type proxyApp struct {
	// Definition is the workflow.xml.
	Definition []byte
	// Script is a hive or pig job's script text, written as ScriptName
	// beside the workflow.xml; empty for map-reduce and sqoop.
	Script string
	// ScriptName is the script's file name: ProxyHiveScript or
	// ProxyPigScript.
	ScriptName string
}

// generateProxyApp writes the one-action workflow Oozie generates for a proxy
// submission of jobType (ProxyMapReduce, ProxyHive, ProxyPig or ProxySqoop)
// from its configuration:
//
//	<workflow-app name="oozie-<type>">  start → <type>1 → end, error → kill "fail"
//
// The action is a map-reduce action whose <configuration> holds every
// property but those of proxySkipped, or a hive action whose <configuration>
// holds the -D options of oozie.hive.options, whose <script> is
// ProxyHiveScript, whose <param> entries are oozie.hive.script.params and
// whose <argument> entries are the other options. oozie.files and
// oozie.archives become <file> and <archive> entries ("path#link", the link
// being the file name when the entry names none). rm and nn are the resource
// manager and name node the caller resolved from props.
func generateProxyApp(jobType string, props *conf.Properties, rm, nn string) (proxyApp, error) {
	node := jobType + "1"
	var body *xmlNode
	var script, scriptName string
	switch jobType {
	case ProxyMapReduce:
		body = proxyMapReduce(props, rm, nn)
	case ProxyHive:
		var err error
		if body, err = proxyHive(props, rm, nn); err != nil {
			return proxyApp{}, err
		}
		script, scriptName = props.Value(PropHiveScript), ProxyHiveScript
	case ProxyPig:
		var err error
		if body, err = proxyPig(props, rm, nn); err != nil {
			return proxyApp{}, err
		}
		script, scriptName = props.Value(PropPigScript), ProxyPigScript
	case ProxySqoop:
		var err error
		if body, err = proxySqoop(props, rm, nn); err != nil {
			return proxyApp{}, err
		}
	default:
		return proxyApp{}, server.ErrInvalidParamValue(paramJobType, jobType)
	}
	root := elem("workflow-app", attr("xmlns", proxyWorkflowNS), attr("name", "oozie-"+jobType))
	root.add(elem("start", attr("to", node)))
	action := elem("action", attr("name", node))
	action.add(body, elem("ok", attr("to", "end")), elem("error", attr("to", "fail")))
	root.add(action)
	root.add(elem("kill", attr("name", "fail")).add(
		textElem("message", jobType+" failed, error message[${wf:errorMessage(wf:lastErrorNode())}]")))
	root.add(elem("end", attr("name", "end")))
	return proxyApp{Definition: root.document(), Script: script, ScriptName: scriptName}, nil
}

// proxyMapReduce is the map-reduce action body.
func proxyMapReduce(props *conf.Properties, rm, nn string) *xmlNode {
	mr := elem("map-reduce")
	mr.add(textElem("job-tracker", rm), textElem("name-node", nn))
	cfg := elem("configuration")
	for name, value := range props.All() {
		if !proxySkipped[name] {
			cfg.add(property(name, value))
		}
	}
	if len(cfg.kids) > 0 {
		mr.add(cfg)
	}
	addProxyFiles(mr, props)
	return mr
}

// proxyHive is the hive action body.
func proxyHive(props *conf.Properties, rm, nn string) (*xmlNode, error) {
	return proxyScriptAction(elem("hive", attr("xmlns", proxyHiveNS)), ProxyHiveScript,
		PropHiveOptions, PropHiveScriptParams, props, rm, nn)
}

// proxyScriptAction fills the body of a script action (hive or pig), Oozie's
// form for both: <job-tracker>, <name-node>, a <configuration> of the -D
// options of the optsKey list, <script>script</script>, a <param> per entry
// of the paramsKey list, an <argument> per other option, then the files and
// archives.
func proxyScriptAction(body *xmlNode, script, optsKey, paramsKey string, props *conf.Properties, rm, nn string) (*xmlNode, error) {
	opts, err := proxyList(props, optsKey)
	if err != nil {
		return nil, err
	}
	params, err := proxyList(props, paramsKey)
	if err != nil {
		return nil, err
	}
	body.add(textElem("job-tracker", rm), textElem("name-node", nn))
	cfg, args, err := proxyDefines(optsKey, opts)
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		body.add(cfg)
	}
	body.add(textElem("script", script))
	for _, p := range params {
		body.add(textElem("param", p))
	}
	for _, a := range args {
		body.add(textElem("argument", a))
	}
	addProxyFiles(body, props)
	return body, nil
}

// proxyDefines splits the options of the list key: -Dname=value ones become
// the properties of a <configuration> (nil when there are none), the others
// are returned in order. An option "-D" or "-D=value", which names no
// property, is 400 E0303.
func proxyDefines(key string, opts []string) (*xmlNode, []string, error) {
	cfg := elem("configuration")
	var args []string
	for i, o := range opts {
		d, ok := strings.CutPrefix(o, "-D")
		if !ok {
			args = append(args, o)
			continue
		}
		name, value, _ := strings.Cut(d, "=")
		if strings.TrimSpace(name) == "" {
			return nil, nil, server.ErrInvalidParamValue(key+"."+strconv.Itoa(i), o)
		}
		cfg.add(property(name, value))
	}
	if len(cfg.kids) == 0 {
		return nil, args, nil
	}
	return cfg, args, nil
}

// proxyList reads the list key.size, key.0, key.1, ... as Oozie's clients
// write it; no size is an empty list. A size that is not a number from 0 to
// maxProxyListSize is 400 E0303, a missing entry 400 E0401 (Oozie would pass
// an empty option or parameter on, which then fails the run).
func proxyList(props *conf.Properties, key string) ([]string, error) {
	s, ok := props.Get(key + ".size")
	if !ok || strings.TrimSpace(s) == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > maxProxyListSize {
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0303,
			"Invalid parameter value, [%s.size] = [%s]", key, s)
	}
	out := make([]string, n)
	for i := range out {
		name := key + "." + strconv.Itoa(i)
		v, ok := props.Get(name)
		if !ok {
			return nil, server.NewError(http.StatusBadRequest, oozieerr.E0401, "Missing configuration property [%s]", name)
		}
		out[i] = v
	}
	return out, nil
}

// addProxyFiles adds the <file> and <archive> entries of oozie.files and
// oozie.archives (comma-separated) to an action body.
func addProxyFiles(body *xmlNode, props *conf.Properties) {
	for _, l := range []struct{ prop, elem string }{{PropFiles, "file"}, {PropArchives, "archive"}} {
		for _, f := range strings.Split(props.Value(l.prop), ",") {
			if strings.TrimSpace(f) == "" {
				continue
			}
			if !strings.Contains(f, "#") {
				if name := f[strings.LastIndexByte(f, '/')+1:]; name != "" {
					f += "#" + name
				}
			}
			body.add(textElem(l.elem, f))
		}
	}
}

// property is a <property> of a <configuration>.
func property(name, value string) *xmlNode {
	return elem("property").add(textElem("name", name), textElem("value", value))
}
