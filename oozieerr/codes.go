package oozieerr

// Every Oozie error code gozie sends, defined once. Each constant is named after its entry in
// Oozie's ErrorCode enum (core/src/main/java/org/apache/oozie/ErrorCode.java); the comment
// gives that entry's message template. The constants are untyped, like net/http's status
// codes, so that they fit both Code and the plain string fields of rows and action results.
// A code added here goes in All and needs a status in server.StatusOf (their tests fail
// otherwise).
const (
	E0002 = "E0002" // System is in safe mode
	E0300 = "E0300" // Invalid content-type [{0}]
	E0301 = "E0301" // Invalid resource [{0}]
	E0302 = "E0302" // Invalid parameter [{0}]
	E0303 = "E0303" // Invalid parameter value, [{0}] = [{1}]
	E0304 = "E0304" // Invalid parameter type, parameter [{0}] expected type [{1}]
	E0305 = "E0305" // Missing parameter [{0}]
	E0307 = "E0307" // Runtime error [{0}]
	E0401 = "E0401" // Missing configuration property [{0}]
	E0402 = "E0402" // Invalid callback ID [{0}]
	E0404 = "E0404" // Only one of the properties are allowed [{0}]
	E0405 = "E0405" // Submission request doesn't have any application or lib path
	E0420 = "E0420" // Invalid jobs filter [{0}], {1}
	E0421 = "E0421" // Invalid job filter [{0}], {1}
	E0500 = "E0500" // Not authorized, {0}
	E0501 = "E0501" // Could not perform authorization operation, {0}
	E0503 = "E0503" // User [{0}] does not have admin privileges
	E0504 = "E0504" // App directory [{0}] does not exist
	E0505 = "E0505" // App definition [{0}] does not exist
	E0508 = "E0508" // User [{0}] not authorized for WF job [{1}]
	E0509 = "E0509" // User [{0}] not authorized for Coord job [{1}]
	E0604 = "E0604" // Job does not exist [{0}]
	E0605 = "E0605" // Action does not exist [{0}]
	E0700 = "E0700" // XML error, {0}
	E0701 = "E0701" // XML schema error, {0}
	E0702 = "E0702" // IO error, {0}
	E0705 = "E0705" // Nnode already defined, node [{0}]
	E0706 = "E0706" // Node cannot transition to itself node [{0}]
	E0707 = "E0707" // Loop detected at parsing, node [{0}]
	E0708 = "E0708" // Invalid transition, node [{0}] transition [{1}]
	E0709 = "E0709" // Loop detected at runtime, node [{0}]
	E0710 = "E0710" // Could not read the workflow definition, {0}; gozie: the filesystem refused it (permission, authentication), which retrying cannot mend
	E0717 = "E0717" // Workflow not suspended
	E0719 = "E0719" // Job already started
	E0720 = "E0720" // Fork/join mismatch, node [{0}]
	E0723 = "E0723" // Unsupported action type, node [{0}] type [{1}]
	E0724 = "E0724" // Invalid node name, {0}
	E0725 = "E0725" // Workflow instance can not be killed, {0}
	E0727 = "E0727" // Workflow Job can not be suspended as its not in running state, {0}, Status: {1}
	E0729 = "E0729" // Kill node message [{0}]
	E0730 = "E0730" // Fork/Join not in pair
	E0731 = "E0731" // Fork node [{0}] cannot have less than two paths
	E0733 = "E0733" // Fork [{0}] without a join
	E0736 = "E0736" // Workflow definition length [{0}] exceeded maximum allowed length [{1}]
	E0737 = "E0737" // Invalid transition from node [{0}] to node [{1}] -- nodes of type 'end' are not allowed within Fork/Join
	E0738 = "E0738" // The following {0} parameters are required but were not defined and no default values are available: {1}
	E0739 = "E0739" // Parameter name cannot be empty
	E0742 = "E0742" // No Fork for Join [{0}] to pair with
	E0743 = "E0743" // Multiple "ok to" transitions to the same node, [{0}], are not allowed
	E0744 = "E0744" // A fork, [{0}], is not allowed to have multiple transitions to the same node, [{1}]
	E0756 = "E0756" // gozie's own: the kill node message failed to evaluate (not in ErrorCode.java)
	E0757 = "E0757" // gozie's own: one fork, several joins (not in ErrorCode.java)
	E0758 = "E0758" // gozie's own: one join, several forks (not in ErrorCode.java)
	E0800 = "E0800" // Action it is not running its in [{1}] state, action [{0}]
	E0803 = "E0803" // IO error, {0}; gozie: a filesystem or store failure its callers retry
	E0804 = "E0804" // Disallowed default property [{0}]
	E0805 = "E0805" // Workflow job not completed, status [{0}]
	E0806 = "E0806" // Action did not complete in previous run, action [{0}]
	E0807 = "E0807" // Some skip actions were not executed [{0}]
	E0808 = "E0808" // Disallowed user property [{0}]
	E0813 = "E0813" // Workflow not RUNNING, current status [{0}]
	E0820 = "E0820" // Action user retry max [{0}] is over system defined max [{1}], re-assign to use system max.
	E0902 = "E0902" // Exception occured: [{0}]; gozie also ends an action the engine gave up on with it
	E0904 = "E0904" // Scheme [{0}] not supported in uri [{1}]
	E0906 = "E0906" // URI parsing error : {0}
	E1003 = "E1003" // Invalid coordinator application attributes, {0}
	E1004 = "E1004" // Expression language evaluation error, {0}
	E1006 = "E1006" // Invalid coordinator application [{0}], {1}
	E1010 = "E1010" // Invalid data in coordinator xml. [{0}]
	E1012 = "E1012" // Coord Job Materialization Error: {0}
	E1015 = "E1015" // Invalid coordinator job change value {0}, {1}
	E1016 = "E1016" // Cannot change a killed coordinator job
	E1017 = "E1017" // Cannot change a workflow job
	E1018 = "E1018" // Coord Job Rerun Error: {0}
	E1019 = "E1019" // Could not submit coord job, [{0}]
	E1020 = "E1020" // Could not kill coord job, this job either finished successfully or does not exist , [{0}]
	E1021 = "E1021" // Coord Action Input Check Error: {0}
	E1022 = "E1022" // Cannot delete running/completed coordinator action: [{0}]
	E1023 = "E1023" // Coord Job update Error: [{0}]
	E1024 = "E1024" // Cannot run ignore command: [{0}]
	E1025 = "E1025" // Coord status transit error: [{0}]
	E1028 = "E1028" // Coord input logic error. {0}
	E1301 = "E1301" // Could not read the bundle job definition, [{0}]
	E1303 = "E1303" // Invalid bundle application attributes [{0}], {1}
	E1304 = "E1304" // Duplicate bundle application coordinator name [{0}]
	E1305 = "E1305" // Empty bundle application coordinator name.
	E1317 = "E1317" // Invalid bundle job change value {0}, {1}
	E1318 = "E1318" // No coord jobs for the bundle=[{0}], fail the bundle
	E1319 = "E1319" // Invalid bundle coord job namespace, [{0}]
	E1400 = "E1400" // doAs (proxyuser) failure

	// ELError is the code an action ends with when an EL expression of its definition fails
	// to evaluate (Oozie's ELEvaluationException); it is not an ErrorCode entry.
	ELError = "EL_ERROR"
)

// All lists every code defined above, in order; server.ErrorFor's table test walks it so
// that a code cannot be added without an HTTP status.
var All = []Code{
	E0002, E0300, E0301, E0302, E0303, E0304, E0305, E0307,
	E0401, E0402, E0404, E0405, E0420, E0421,
	E0500, E0501, E0503, E0504, E0505, E0508, E0509,
	E0604, E0605,
	E0700, E0701, E0702, E0705, E0706, E0707, E0708, E0709, E0710, E0717, E0719, E0720, E0723, E0724,
	E0725, E0727, E0729, E0730, E0731, E0733, E0736, E0737, E0738, E0739, E0742, E0743, E0744,
	E0756, E0757, E0758,
	E0800, E0803, E0804, E0805, E0806, E0807, E0808, E0813, E0820,
	E0902, E0904, E0906,
	E1003, E1004, E1006, E1010, E1012, E1015, E1016, E1017, E1018, E1019, E1020, E1021, E1022,
	E1023, E1024, E1025, E1028,
	E1301, E1303, E1304, E1305, E1317, E1318, E1319,
	E1400,
	ELError,
}
