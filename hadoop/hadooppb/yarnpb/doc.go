// Package yarnpb holds the generated Go types of the subset of YARN's
// ApplicationMasterProtocol and AMRM token identifier that gozie uses.
//
// The declarations live in ../proto/gozie; regenerate with ../generate.sh.
package yarnpb
