// Package commonpb holds the generated Go types of Hadoop's common RPC
// messages: RPC headers, SASL, the connection context and tokens.
//
// The declarations live in ../proto/gozie; regenerate with ../generate.sh.
package commonpb
