// Package hdfspb holds the generated Go types of the HDFS ClientProtocol,
// HDFS record and data-transfer messages that gozie uses.
//
// The declarations live in ../proto/gozie; regenerate with ../generate.sh.
package hdfspb
