// Package digestmd5 implements the DIGEST-MD5 SASL mechanism (RFC 2831) as
// Hadoop uses it for token authentication: quality of protection "auth"
// only (no integrity or confidentiality layer), algorithm md5-sess, one
// round trip (the server's challenge, the client's response, the server's
// rspauth proving it knew the same password).
//
// Hadoop feeds the mechanism the token identifier and password, both
// base64-encoded, as user name and password; that encoding is the caller's
// job (see package hadoop/ipc), this package works on plain strings.
package digestmd5
