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
// token's identifier and password through SASL DIGEST-MD5, with the
// identifier and password base64-encoded as Hadoop does, realm and server
// id "default"; the server looks passwords up with a SecretLookup.
// KERBEROS (SASL GSSAPI, RFC 4752, both sides: ClientOptions.Kerberos,
// ServerOptions.Kerberos) authenticates with an AP-REQ checked against
// the server's keytab (no mutual authentication, as Hadoop's client asks);
// the server then offers the security layers of its protection levels in
// a signed 4-byte message (layer mask, maximum buffer 65536) and the
// client answers with its choice. Integrity and privacy wrap packets in
// RFC 4121 Wrap tokens (checksummed, or sealed with EC 0 and RRC 0, as
// Java sends them; received RRC rotation is undone). Authenticate runs the
// client side on a connection someone else then speaks on (Session).
//
// # Quality of protection
//
// hadoop.rpc.protection (RPCProtectionKey, read by ParseProtection) lists
// the levels of a SASL connection: authentication (qop auth, the
// default), integrity (auth-int) and privacy (auth-conf). A server
// (ServerOptions.Protection) offers its list, in order, in the DIGEST-MD5
// challenge and refuses a client that picks another; a client
// (ClientOptions.Protection) picks the first level of its own list that
// the server offers, or fails with ErrNoCommonProtection. Under privacy
// the cipher is Java's first choice, 3des (the server offers Java's five:
// 3des, rc4, des, rc4-56, rc4-40). SIMPLE connections have no SASL and are
// not affected, as in Hadoop.
//
// With integrity or privacy, every packet after the SASL SUCCESS, both
// ways (the connection context first), travels inside SASL WRAP messages
// (call id -33, RpcSaslProto{state: WRAP, token}), as Hadoop's
// SaslRpcClient and Server.wrapWithSasl send them: the plain packet stream
// is cut into pieces of at most the peer's maxbuf less the layer's
// overhead, each wrapped with a MAC and a sequence number (and encrypted
// under privacy). Receivers join the unwrapped pieces and take pieces of
// any size, since Hadoop's own peers wrap each request and response whole.
// A token that fails its MAC or arrives out of sequence (tampered,
// replayed, reordered, dropped) ends the connection: the server answers a
// FATAL SaslException, the client fails every call. A plain packet on a
// wrapping connection is refused too, which is stricter than Hadoop's
// server (it runs such a call).
//
// # Errors
//
// Handlers return errors; a *RemoteError keeps its class, io/fs sentinels
// map to FileNotFoundException, AccessControlException and
// FileAlreadyExistsException, anything else becomes an IOException. On the
// client every failed call is a *RemoteError, which errors.Is matches
// against the same sentinels.
package ipc
