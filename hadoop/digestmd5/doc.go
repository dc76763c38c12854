// Package digestmd5 implements the DIGEST-MD5 SASL mechanism (RFC 2831) as
// Hadoop uses it for token authentication, both sides, interoperable with
// the JDK's com.sun.security.sasl.digest that Hadoop runs on: algorithm
// md5-sess, one round trip (the server's challenge, the client's response,
// the server's rspauth proving it knew the same password), charset UTF-8
// with ISO 8859-1 for names and passwords that fit it.
//
// Quality of protection: the server offers a list of qops (Server.Qops, in
// Hadoop the order of hadoop.rpc.protection) and the client takes the
// first of its own list (Client.Qops) that the server offers; with either
// a layer, A2 of the digests ends in ":" and 32 zeros. auth has no
// security layer. auth-int and auth-conf give both sides a SecurityLayer
// (RFC 2831 sections 2.3 and 2.4): HMAC-MD5 under Kic/Kis with per-direction
// sequence numbers, and under auth-conf encryption with Kcc/Kcs by one of
// the ciphers the JDK offers, 3des (Java's first choice, so what Hadoop
// peers agree on), rc4, des, rc4-56 and rc4-40. maxbuf is parsed, sent and
// exposed as SecurityLayer.MaxWrap.
//
// The package is checked against the JDK: testdata/java_vectors.json holds
// exchanges between the JDK's client and server (captured with
// testdata/SaslPeer.java), which the Go sides must reproduce byte for
// byte, and a live test runs each Go side against the JDK's other side
// when javac is available.
//
// Hadoop feeds the mechanism the token identifier and password, both
// base64-encoded, as user name and password; that encoding is the caller's
// job (see package hadoop/ipc), this package works on plain strings.
//
// An accepting service that is not Hadoop IPC (a HiveServer2 taking
// HIVE_DELEGATION_TOKENs over Thrift SASL, say) runs a Server: Challenge
// for its first message, Respond with the client's response (the answer
// is the rspauth to send with the SASL COMPLETE), Username for the
// (base64) identifier that authenticated, SecurityLayer for auth-int and
// auth-conf. Password looks the token up: base64-decode the user name,
// parse it (package hadoop/delegation for the AbstractDelegationTokenIdentifier
// layout) and return the base64 of the token's password, or an error to
// refuse it.
package digestmd5
