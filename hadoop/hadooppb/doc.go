// Package hadooppb holds gozie's own protocol-buffer declarations of the
// Hadoop messages it speaks, and the Go code generated from them.
//
// The .proto files under proto/gozie are written for gozie: field numbers
// and types are facts of the Hadoop wire protocol, while the proto package
// names (gozie.hadoop.common, gozie.hadoop.hdfs, gozie.hadoop.yarn) and file
// paths differ from Hadoop's so that they never clash with other copies
// linked into the same binary (colinmarc/hdfs registers Hadoop's own names,
// and protobuf-go refuses duplicate registrations at start-up).
//
// Generated packages:
//   - commonpb: RPC headers, SASL, connection context, tokens.
//   - hdfspb: the ClientNamenodeProtocol, HDFS and data-transfer subset.
//   - yarnpb: the ApplicationMasterProtocol subset and AMRM token identifier.
//
// Regenerate with generate.sh (protoc plus a pinned protoc-gen-go); the
// generated code is committed so builds need neither tool.
package hadooppb

//go:generate ./generate.sh
