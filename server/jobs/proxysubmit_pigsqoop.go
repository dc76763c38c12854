package jobs

import (
	"strings"

	"github.com/gozie/gozie/conf"
)

// Properties of proxy pig and sqoop submissions, as Oozie's clients write them.
const (
	// PropPigScript holds a pig job's script text (not a path).
	PropPigScript = "oozie.pig.script"
	// PropPigOptions and PropPigScriptParams are lists like the hive ones: the options
	// of the pig command (-Dname=value ones go to <configuration>, the others to
	// <argument>) and the script's NAME=VALUE parameters (<param>).
	PropPigOptions      = "oozie.pig.options"
	PropPigScriptParams = "oozie.pig.script.params"
	// PropSqoopCommand holds a sqoop job's command, one argument per line; each line
	// becomes an <arg>.
	PropSqoopCommand = "oozie.sqoop.command"
	// PropSqoopOptions is a list of options of which the -Dname=value ones go to the
	// sqoop action's <configuration>; Oozie passes the others nowhere, and neither does
	// gozie.
	PropSqoopOptions = "oozie.sqoop.options"
)

// ProxyPigScript is the file name of a proxy pig job's script in its application
// directory, the name Oozie gives it in the generated <script>.
const ProxyPigScript = "dummy.pig"

// proxySqoopNS is the namespace of the generated sqoop action, the one Oozie writes.
const proxySqoopNS = "uri:oozie:sqoop-action:0.4"

// proxyRequired is the property a proxy submission of a job type must set (E0401 when
// it is empty): the script of hive and pig jobs, the command of sqoop jobs.
var proxyRequired = map[string]string{
	ProxyHive:  PropHiveScript,
	ProxyPig:   PropPigScript,
	ProxySqoop: PropSqoopCommand,
}

// proxyPig is the pig action body: Oozie writes it in the workflow's own namespace,
// in the hive action's form, its script being ProxyPigScript.
func proxyPig(props *conf.Properties, rm, nn string) (*xmlNode, error) {
	return proxyScriptAction(elem("pig"), ProxyPigScript, PropPigOptions, PropPigScriptParams, props, rm, nn)
}

// proxySqoop is the sqoop action body (uri:oozie:sqoop-action:0.4): <job-tracker>,
// <name-node>, a <configuration> of the -D options of oozie.sqoop.options, an <arg>
// per line of oozie.sqoop.command, then the files and archives. As Oozie's, the
// command is split at every newline, and the options that are not -D go nowhere.
func proxySqoop(props *conf.Properties, rm, nn string) (*xmlNode, error) {
	opts, err := proxyList(props, PropSqoopOptions)
	if err != nil {
		return nil, err
	}
	sq := elem("sqoop", attr("xmlns", proxySqoopNS))
	sq.add(textElem("job-tracker", rm), textElem("name-node", nn))
	cfg, _, err := proxyDefines(PropSqoopOptions, opts)
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		sq.add(cfg)
	}
	// The value is trimmed, so the newline ending the last argument is gone.
	for _, a := range strings.Split(props.Value(PropSqoopCommand), "\n") {
		sq.add(textElem("arg", a))
	}
	addProxyFiles(sq, props)
	return sq, nil
}
