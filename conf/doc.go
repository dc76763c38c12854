// Package conf reads and holds configuration: the gozie server's own settings, the Hadoop
// client configuration of the cluster it talks to, and the job configuration users submit.
//
// Three formats are supported, each with errors that name the source and the line or key at
// fault:
//
//   - Java properties files (job.properties) with the whole java.util.Properties syntax:
//     ReadProperties and WriteProperties; an action's captured output (wf:actionData) is
//     read with the same syntax by ParseOutputProperties, which never fails.
//   - Hadoop configuration XML (<configuration><property><name/><value/>...), used by the
//     *-site.xml files, gozie-site.xml and the body of REST job submissions:
//     ReadConfigurationXML and WriteConfigurationXML.
//   - Environment variables and command-line flags, layered over gozie-site.xml by Load.
//
// Job configuration goes through Oozie's property-to-property substitution (Substitute) on
// submission. Server settings have exactly one table of keys, defaults and documentation
// (Settings); Load applies the layers defaults < gozie-site.xml < GOZIE_* environment
// variables < flags and returns a typed, validated Server. A default that components also
// need as a Go value is a Default* constant (defaults.go) from which the table formats its
// string; the engine, the runners, the SLA service and the purge take these constants for
// Config fields left at zero, so that they never hold a second, different number.
package conf
