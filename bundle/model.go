package bundle

import (
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
)

// App is a parsed bundle application (bundle.xml) as written: attribute and element values
// still hold their EL expressions. Resolve turns it into a Job for one submission.
type App struct {
	// Namespace is the document's namespace, uri:oozie:bundle:0.1 or 0.2.
	Namespace string
	// Version is the schema version, "0.1" or "0.2".
	Version string
	// Name is the name attribute.
	Name string
	// Parameters are the formal parameters (schema 0.2).
	Parameters []Parameter
	// KickOffTime is the text of controls/kick-off-time; empty when absent.
	KickOffTime string
	// Coordinators are the coordinator entries, in document order.
	Coordinators []CoordinatorDef
}

// Parameter is one formal parameter of <parameters>.
type Parameter = coordinator.Parameter

// CoordinatorDef is one <coordinator> entry as written.
type CoordinatorDef struct {
	// Name is the name attribute: the coordinator job's name once submitted.
	Name string
	// AppPath is the coordinator application: a directory holding coordinator.xml, or
	// the .xml file itself.
	AppPath string
	// Configuration is the entry's <configuration>, overriding the bundle's job
	// configuration for this coordinator.
	Configuration []conf.Property
	// Critical and Enabled are the optional attributes; Has* tells whether they were
	// written (enabled only exists in schema 0.2).
	Critical, Enabled       string
	HasCritical, HasEnabled bool
	// Line is where the entry starts, for errors.
	Line int
}

// Job is a bundle resolved for one submission: every EL expression evaluated, parameter
// defaults applied and the names checked.
type Job struct {
	// Namespace is the schema namespace of the application.
	Namespace string
	// Name is the bundle's name.
	Name string
	// KickoffTime is when the coordinators are submitted; zero means at once.
	KickoffTime time.Time
	// Conf is the job configuration, with the formal parameters' defaults added.
	Conf *conf.Properties
	// Coordinators are the entries, in document order, disabled ones included.
	Coordinators []Coordinator
}

// Coordinator is one resolved coordinator entry.
type Coordinator struct {
	// Name is the coordinator job's name (it replaces the name in coordinator.xml).
	Name string
	// AppPath is the coordinator application's path.
	AppPath string
	// Conf is the entry's configuration, overriding the bundle's.
	Conf *conf.Properties
	// Critical is stored and shown; it changes nothing, as in Oozie.
	Critical bool
	// Enabled is false for an entry whose enabled attribute is not "true" (any case).
	Enabled bool
}

// Enabled returns the coordinators that are submitted at kick-off.
func (j *Job) Enabled() []Coordinator {
	var out []Coordinator
	for _, c := range j.Coordinators {
		if c.Enabled {
			out = append(out, c)
		}
	}
	return out
}

// ActionID is the id of a bundle's link to one of its coordinators, <bundleID>_<name>.
func ActionID(bundleID, coordName string) string { return bundleID + "_" + coordName }
