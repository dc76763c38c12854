// Package ipc speaks Hadoop IPC (RPC version 9, protocol-buffer engine)
// over TCP, as a server and as a client, for any protocol: the HDFS
// ClientProtocol served by testenv's MiniDFS, YARN's
// ApplicationMasterProtocol used by the launcher, and so on.
//
// # Wire format
//
// A connection starts with the 7-byte preamble "hrpc", version 9, service
// class 0 and the auth protocol (0 for SIMPLE, 0xDF for SASL). With SASL,
// RpcSaslProto messages with call id -33 follow (NEGOTIATE, INITIATE,
// CHALLENGE, RESPONSE, SUCCESS). The client then sends the connection
// context (call id -3, no answer) and its calls. Every packet is a 4-byte
// big-endian length followed by varint-delimited messages: requests carry
// RpcRequestHeaderProto, RequestHeaderProto (method and protocol) and the
// request; responses carry RpcResponseHeaderProto and, on success, the
// response. A failed call has only the header, naming a Java exception
// class and message (a RemoteException); status FATAL also closes the
// connection.
//
// # Authentication
//
// SIMPLE trusts the user the client names. TOKEN authenticates with a
// token's identifier and password through SASL DIGEST-MD5 (qop "auth"),
// with the identifier and password base64-encoded as Hadoop does, realm and
// server id "default"; the server looks passwords up with a SecretLookup.
// KERBEROS (server side) accepts a GSSAPI AP-REQ checked against a keytab,
// as colinmarc/hdfs sends it, and offers no security layer.
//
// # Errors
//
// Handlers return errors; a *RemoteError keeps its class, io/fs sentinels
// map to FileNotFoundException, AccessControlException and
// FileAlreadyExistsException, anything else becomes an IOException. On the
// client every failed call is a *RemoteError, which errors.Is matches
// against the same sentinels.
package ipc
