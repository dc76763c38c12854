// Package yarn is gozie's client for Apache Hadoop YARN.
//
// It holds three things:
//
//   - [Client], a client of the ResourceManager REST API (JSON) under
//     /ws/v1/cluster: cluster info, new-application, submission, application
//     reports, one batched list query, kill and attempts. It knows every RM of an
//     HA pair and moves to the next one on a refused connection or a standby
//     answer (307 or "This is standby RM"), retries transient failures (network
//     errors, 5xx) with exponential backoff and jitter bounded by the context,
//     and decodes the RM's RemoteException JSON into a [*RemoteError].
//     Authentication is pluggable through [Authenticator]; [PseudoAuth] adds
//     the user.name parameter of Hadoop's simple authentication. A request
//     made for a user (a context from hadoop.AsUser) also carries doAs=<user>,
//     whatever the authentication, so that the RM acts for that user under its
//     proxy-user rules: the server submits, looks up and kills a job's
//     applications as the job's user.
//   - The application, attempt and container id types ([ApplicationID],
//     [AttemptID], [ContainerID]) with YARN's textual forms, and [ActionTag],
//     the deterministic application tag that makes launches idempotent: the
//     engine records the tag before submitting and looks it up with
//     [Client.Apps] before it ever submits again.
//   - The Go types of the documented JSON shapes: [ApplicationSubmissionContext]
//     and [ContainerLaunchContext] for submission, [AppReport] for reports,
//     with Jersey's map ({"entry":[{"key":…,"value":…}]}) and list
//     ({"tag":[…]}) encodings handled by [EntryMap], [Tags] and [Commands].
//
// How an engine reads a report (this is also Oozie's rule): an application is
// done when its state is FINISHED, FAILED or KILLED, and it succeeded only when
// its final status is SUCCEEDED. FINISHED with final status FAILED is normal:
// the ApplicationMaster unregistered with a failure.
//
// Application state as the ResourceManager reports it:
//
//	NEW ─► NEW_SAVING ─► SUBMITTED ─► ACCEPTED ─► RUNNING ─► FINISHED
//	                                     │            ├────► FAILED
//	                                     │            └────► KILLED
//	                                     └─► FAILED / KILLED (before the AM registered)
//
// The final status stays UNDEFINED until the application reaches a final state.
package yarn
