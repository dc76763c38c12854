// Package e2e holds gozie's end-to-end tests: the real gozie binary (server,
// CLI, launcher) against the local cluster stand-ins, with Oozie's example
// applications copied in unchanged, driven the way a data engineer would.
package e2e
