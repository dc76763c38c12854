// Package workflow is the pure part of gozie's workflow engine: the model
// and parser of Oozie workflow applications, their validation with Oozie's
// error codes, the resolution of job configuration, the wf: EL functions and
// the DAG decision core.
//
// # Definitions
//
// Parse reads a workflow-app document of namespace uri:oozie:workflow:0.1 to
// 1.0 into an App, checking it against the schema of its version: unknown,
// missing and misplaced elements are E0701 errors that name the element and
// the line. Action bodies are typed (Shell, Java, MapReduce, Hive, Hive2, FS,
// SubWorkflow, Email, Distcp, Pig); other types (sqoop, spark, ssh, git,
// custom types) parse as Unsupported. Schema-instance attributes
// (xsi:schemaLocation, ...) are accepted on every element, as Oozie's XSD
// validation accepts them, and dropped. Each action also keeps its body as a
// standalone XML fragment (Action.Raw). sla:info blocks (sla 0.1 and 0.2) of
// the job and of actions are kept as SLAInfo for the SLA service.
//
// Validate checks the graph as Oozie's validator does (node names, missing
// transitions, loops, fork/join pairing, unsupported types: those the
// parser does not model and, through Options.HasExecutor, those the server
// has no executor for) and Load does
// both. ResolveJobConf layers <parameters> defaults, config-default.xml and
// the job configuration; App.ActionXML merges <global> into an action.
//
// # Running
//
// Decide is a pure function of the app, the job row, its action rows and an
// Event (start, action end, kill, suspend, resume, rerun, user retry due). It
// returns a Step: the rows to create, update and delete, and the actions to
// launch, kill or retry later. The engine applies a Step in one transaction;
// see Step for why that is safe to repeat. What the action rows do not hold
// (execution paths, join arrivals, the last error node, rerun skips) is kept
// in Instance, as JSON in store.WorkflowJob.Instance.
//
// Control nodes run inside Decide: start, fork, join, decision (its cases are
// EL predicates, the first "true" one wins), kill and end each get a row that
// is already terminal. Actions get a PREP row whose Conf is the action body
// with <global> and config-default.xml merged in and EL resolved; the engine
// launches them. When an action ends, OK follows its ok transition; ERROR is
// retried by the user-retry rules (retryable error code, retry-max capped at
// 3, periodic or exponential delay) and otherwise follows its error
// transition; FAILED fails the job. Fork paths start together; a join moves
// on once every path of its fork has reached it.
//
// # Job and action states
//
// The legal moves of a job are the table store.WorkflowMachine and those of an action
// store.ActionMachine, each drawn in its doc in package store (the one drawing). A rerun
// moves a finished job back to PREP with its run number increased, as Oozie's
// ReRunXCommand does, and the engine then starts it. TestDecideMovesAreInTheTables drives
// Decide with random events and checks every change it makes against both tables.
//
// While a job is SUSPENDED, an action that ends is set to DONE and acted on
// at resume. START_RETRY and START_MANUAL belong to the runner's handling
// of failed starts (wfrun.StartRetry): a start that failed transiently
// waits in START_RETRY for its retry; one that failed non-transiently, or
// ran out of retries, waits in START_MANUAL with the job SUSPENDED, and
// resume starts both again. Both, and END_RETRY/END_MANUAL, which gozie
// does not set (a failed check of a running action is retried until the
// action is seen to end), are treated as still active.
package workflow
