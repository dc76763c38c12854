package minidfs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	gopath "path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/internal/portpick"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"google.golang.org/protobuf/proto"
)

// WebHDFS: each NameNode serves /webhdfs/v1 on its HTTP address
// (dfs.namenode.http-address), and the DataNode on its own HTTP address
// (its info port) serves the data of OPEN and CREATE, to which the
// NameNode redirects, as NamenodeWebHdfsMethods and the DataNode's
// WebHdfsHandler do. Both reach the namespace through the NameNode's own
// ClientProtocol handlers as the caller, so WebHDFS and RPC share one
// namespace, one permission checker, one HA state and one lease table.

// WebHDFS facts: the path prefix, the configuration keys the web
// endpoints read, and Hadoop's defaults for them.
const (
	// WebHDFSPrefix is the path below which WebHDFS serves
	// (WebHdfsFileSystem.PATH_PREFIX).
	WebHDFSPrefix = "/webhdfs/v1"
	// HTTPAddressKey is dfs.namenode.http-address (with .<ns>.<nn>
	// appended for each NameNode of an HA pair).
	HTTPAddressKey = "dfs.namenode.http-address"
	// StaticUserKey is hadoop.http.staticuser.user: who an anonymous web
	// request acts as (default "dr.who").
	StaticUserKey = "hadoop.http.staticuser.user"
	// AnonymousAllowedKey is dfs.web.authentication.simple.anonymous.allowed
	// (AuthFilter: true unless set): with false, a request without
	// user.name is refused under simple authentication.
	AnonymousAllowedKey = "dfs.web.authentication.simple.anonymous.allowed"

	defaultStaticUser = "dr.who"
	// userPattern is dfs.webhdfs.user.provider.user.pattern's default, the
	// domain of user.name and doas (UserParam, DoAsParam).
	userPattern = `^[A-Za-z_][A-Za-z0-9._-]*[$]?$`
	// namenodeAddressParam names the NameNode in a DataNode URL
	// (NamenodeAddressParam).
	namenodeAddressParam = "namenoderpcaddress"
	// Default permissions of new files and directories (PermissionParam).
	defaultFilePerm = 0o644
	defaultDirPerm  = 0o755
)

// Java exception classes of web refusals, besides those of package ipc.
const (
	illegalArgumentException = "java.lang.IllegalArgumentException"
	securityException        = "java.lang.SecurityException"
)

var userDomain = regexp.MustCompile(userPattern)

// webServer is one HTTP listener of the cluster.
type webServer struct {
	srv  *http.Server
	addr string
}

// serveWeb serves h on listen (a random loopback port below the ephemeral
// range when empty or port 0, as every server of the cluster picks it, so
// that a restart finds it free).
func serveWeb(ctx context.Context, listen string, h http.Handler) (*webServer, error) {
	if listen == "" {
		listen = loopback
	}
	l, err := portpick.Listen(ctx, listen)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", listen, err)
	}
	s := &webServer{srv: &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}, addr: advertised(listen, l.Addr().String())}
	go s.srv.Serve(l)
	return s, nil
}

func (s *webServer) close() {
	if s != nil {
		s.srv.Close()
	}
}

// startWeb starts the HTTP servers: one per NameNode (Options.
// NameNodeHTTPAddrs) and the DataNode's (Options.DataNodeHTTPAddr).
func (m *MiniDFS) startWeb(ctx context.Context) error {
	dn, err := serveWeb(ctx, m.opts.DataNodeHTTPAddr, http.HandlerFunc(m.serveDataNode))
	if err != nil {
		return fmt.Errorf("minidfs: starting the DataNode's HTTP server: %w", err)
	}
	m.dnWeb = dn
	_, port, _ := net.SplitHostPort(dn.addr)
	m.dn.infoPort, _ = strconv.Atoi(port)
	for i := range m.nns {
		listen := ""
		if i < len(m.opts.NameNodeHTTPAddrs) {
			listen = m.opts.NameNodeHTTPAddrs[i]
		}
		idx := i
		s, err := serveWeb(ctx, listen, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { m.serveNameNode(w, r, idx) }))
		if err != nil {
			return fmt.Errorf("minidfs: starting the HTTP server of NameNode %d: %w", i+1, err)
		}
		m.nnWeb = append(m.nnWeb, s)
	}
	return nil
}

// HTTPAddrs returns the HTTP host:port of every NameNode (nn1, nn2 for an
// HA pair), where WebHDFS is served.
func (m *MiniDFS) HTTPAddrs() []string {
	addrs := make([]string, len(m.nnWeb))
	for i, s := range m.nnWeb {
		addrs[i] = s.addr
	}
	return addrs
}

// HTTPAddr returns the active NameNode's HTTP host:port (nn1's while none
// is active).
func (m *MiniDFS) HTTPAddr() string {
	if i := m.ActiveNameNode(); i >= 0 {
		return m.nnWeb[i].addr
	}
	return m.nnWeb[0].addr
}

// DataNodeHTTPAddr returns the DataNode's HTTP host:port (its info port),
// where WebHDFS reads and writes data.
func (m *MiniDFS) DataNodeHTTPAddr() string { return m.dnWeb.addr }

// HTTPConf returns the hdfs-site.xml properties naming the NameNodes' HTTP
// addresses: dfs.namenode.http-address, or dfs.namenode.http-address.<ns>.
// <nn> for each NameNode of an HA pair.
func (m *MiniDFS) HTTPConf() map[string]string {
	if !m.opts.HA {
		return map[string]string{HTTPAddressKey: m.nnWeb[0].addr}
	}
	conf := map[string]string{}
	for i, n := range m.nns {
		conf[HTTPAddressKey+"."+m.opts.Nameservice+"."+n.id] = m.nnWeb[i].addr
	}
	return conf
}

// webError is a refusal in WebHDFS's JSON (ExceptionHandler): the Java
// class of the exception, its message, and the HTTP status it maps to.
type webError struct {
	status  int
	class   string
	message string
}

func (e *webError) Error() string { return e.class + ": " + e.message }

// badParam is ParamException turned IllegalArgumentException.
func badParam(name, format string, args ...any) *webError {
	return &webError{http.StatusBadRequest, illegalArgumentException,
		fmt.Sprintf("Invalid value for webhdfs parameter %q: ", name) + fmt.Sprintf(format, args...)}
}

// webStatus maps an exception class to the status ExceptionHandler gives
// it: 404 FileNotFoundException, 400 IllegalArgumentException (and its
// Hadoop subclasses) and UnsupportedOperationException, 403 for
// SecurityException, AuthorizationException and every other IOException.
func webStatus(class string) int {
	switch class {
	case ipc.FileNotFoundException:
		return http.StatusNotFound
	case illegalArgumentException, ipc.HadoopIllegalArgumentException, invalidPathException, ipc.UnsupportedOperationException:
		return http.StatusBadRequest
	}
	return http.StatusForbidden
}

// asWebError turns what a NameNode handler returned into its refusal.
func asWebError(err error) *webError {
	var we *webError
	if errors.As(err, &we) {
		return we
	}
	var re *ipc.RemoteError
	if errors.As(err, &re) {
		return &webError{webStatus(re.Class), re.Class, re.Message}
	}
	return &webError{http.StatusForbidden, ipc.IOException, err.Error()}
}

// writeWebError answers err as {"RemoteException":{...}} (JsonUtil.
// toJsonString(Exception)).
func writeWebError(w http.ResponseWriter, err error) {
	e := asWebError(err)
	simple := e.class[strings.LastIndexAny(e.class, ".$")+1:]
	writeJSON(w, e.status, map[string]any{"RemoteException": map[string]string{
		"exception": simple, "javaClassName": e.class, "message": e.message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// webParams are a request's query parameters by lower-cased name, as
// Hadoop's ParamFilter reads them.
type webParams map[string]string

func paramsOf(r *http.Request) webParams {
	p := webParams{}
	for k, vs := range r.URL.Query() {
		if len(vs) > 0 {
			p[strings.ToLower(k)] = vs[0]
		}
	}
	return p
}

// boolean reads a BooleanParam: true or false, case-insensitively.
func (p webParams) boolean(name string, def bool) (bool, error) {
	v, ok := p[name]
	if !ok || v == "" {
		return def, nil
	}
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, badParam(name, "Failed to parse %q to Boolean.", v)
}

// long reads a LongParam at least min.
func (p webParams) long(name string, def, min int64) (int64, error) {
	v, ok := p[name]
	if !ok || v == "" || v == "null" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, badParam(name, "Failed to parse %q as a radix-10 long integer.", v)
	}
	if n < min {
		return 0, badParam(name, "Invalid parameter range: %s = %d < %d", name, n, min)
	}
	return n, nil
}

// permission reads a PermissionParam: octal, 0 to 1777.
func (p webParams) permission(def uint32) (uint32, error) {
	v, ok := p["permission"]
	if !ok || v == "" || v == "null" {
		return def, nil
	}
	n, err := strconv.ParseUint(v, 8, 16)
	if err != nil || n > 0o1777 {
		return 0, badParam("permission", "Failed to parse %q as a radix-8 short integer.", v)
	}
	return uint32(n), nil
}

// webCaller is who a web request acts as, as Hadoop's AuthFilter and
// JspHelper.getUGI decide: on a Kerberized MiniDFS see secureCaller; under
// simple authentication user.name, else the static user when anonymous
// requests are allowed; doas makes that user a proxy (actFor). dataNode
// says the DataNode asks.
func (m *MiniDFS) webCaller(w http.ResponseWriter, r *http.Request, p webParams, dataNode bool) (*ipc.Call, bool) {
	for _, name := range []string{"user.name", "doas"} {
		if v, ok := p[name]; ok && v != "" && !userDomain.MatchString(v) {
			writeWebError(w, badParam(name, "Invalid value: %q does not belong to the domain %s", v, userPattern))
			return nil, false
		}
	}
	if m.opts.Kerberos != nil {
		return m.secureCaller(w, r, p, dataNode)
	}
	user := p["user.name"]
	if user == "" {
		if m.opts.Conf[AnonymousAllowedKey] == "false" {
			w.Header().Set("WWW-Authenticate", "PseudoAuth")
			http.Error(w, "Authentication required", http.StatusUnauthorized)
			return nil, false
		}
		user = defaultStaticUser
		if v := m.opts.Conf[StaticUserKey]; v != "" {
			user = v
		}
	}
	call := &ipc.Call{Protocol: ipc.ClientProtocol, Method: "webhdfs", Auth: ipc.AuthSimple, User: user,
		EffectiveUser: user, RemoteAddr: remoteAddr(r)}
	return m.actFor(w, r, call, p["doas"])
}

// actFor makes call act for doas (when it names another user) if the
// hadoop.proxyuser rules the NameNode's RPC server applies allow it;
// UserProvider wraps the AuthorizationException of ProxyUsers.authorize
// in a SecurityException.
func (m *MiniDFS) actFor(w http.ResponseWriter, r *http.Request, call *ipc.Call, doas string) (*ipc.Call, bool) {
	if doas == "" || doas == ugi.ShortName(call.User) {
		return call, true
	}
	if err := m.proxies.Authorize(call.User, doas, ugi.HostOf(r.RemoteAddr)); err != nil {
		writeWebError(w, &webError{http.StatusForbidden, securityException,
			"Failed to obtain user group information: " + ipc.AuthorizationException + ": " + err.Error()})
		return nil, false
	}
	call.RealUser = call.User
	call.User, call.EffectiveUser = doas, doas
	return call, true
}

func remoteAddr(r *http.Request) net.Addr {
	if a, err := net.ResolveTCPAddr("tcp", r.RemoteAddr); err == nil {
		return a
	}
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}
}

// webPath is the HDFS path of a WebHDFS URL ("/" for the prefix alone).
func webPath(r *http.Request) (string, bool) {
	rest, ok := strings.CutPrefix(r.URL.Path, WebHDFSPrefix)
	if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return "", false
	}
	if rest == "" {
		rest = "/"
	}
	return rest, true
}

// webOps are the operations served, by HTTP method, with the NameNode
// operation category each needs (GetOpParam, PutOpParam, DeleteOpParam,
// PostOpParam). Hadoop's other operations of each method are answered
// "is not supported"; unknown names are not of the method's enum.
var webOps = map[string]map[string]opCategory{
	http.MethodGet:    {"OPEN": opRead, "GETFILESTATUS": opRead, "LISTSTATUS": opRead, "GETHOMEDIRECTORY": opUnchecked},
	http.MethodPut:    {"CREATE": opWrite, "MKDIRS": opWrite, "RENAME": opWrite},
	http.MethodDelete: {"DELETE": opWrite},
	http.MethodPost:   {},
}

// otherOps are Hadoop's operations this stand-in leaves out, by method.
var otherOps = map[string][]string{
	http.MethodGet: {"GETFILECHECKSUM", "GETCONTENTSUMMARY", "GETQUOTAUSAGE", "GETFILEBLOCKLOCATIONS", "GET_BLOCK_LOCATIONS",
		"GETACLSTATUS", "GETXATTRS", "LISTXATTRS", "GETDELEGATIONTOKEN", "GETTRASHROOT", "LISTSTATUS_BATCH", "GETSERVERDEFAULTS",
		"CHECKACCESS", "GETALLSTORAGEPOLICY", "GETSTORAGEPOLICY", "GETSNAPSHOTDIFF", "GETSNAPSHOTTABLEDIRECTORYLIST",
		"GETECPOLICY", "GETSNAPSHOTLIST", "GETLINKTARGET", "GETFILELINKSTATUS", "GETSTATUS", "NULL"},
	http.MethodPut: {"SETREPLICATION", "SETOWNER", "SETPERMISSION", "SETTIMES", "RENEWDELEGATIONTOKEN", "CANCELDELEGATIONTOKEN",
		"CREATESYMLINK", "MODIFYACLENTRIES", "REMOVEACLENTRIES", "REMOVEDEFAULTACL", "REMOVEACL", "SETACL", "SETXATTR",
		"REMOVEXATTR", "ENABLEECPOLICY", "DISABLEECPOLICY", "SETECPOLICY", "ALLOWSNAPSHOT", "DISALLOWSNAPSHOT",
		"CREATESNAPSHOT", "RENAMESNAPSHOT", "SETSTORAGEPOLICY", "SATISFYSTORAGEPOLICY", "NULL"},
	http.MethodDelete: {"DELETESNAPSHOT", "NULL"},
	http.MethodPost:   {"APPEND", "CONCAT", "TRUNCATE", "UNSETSTORAGEPOLICY", "UNSETECPOLICY", "NULL"},
}

// enumNames are the Java enums of the op parameter, by HTTP method.
var enumNames = map[string]string{
	http.MethodGet: "GetOpParam", http.MethodPut: "PutOpParam", http.MethodDelete: "DeleteOpParam", http.MethodPost: "PostOpParam",
}

// webOp reads the op parameter of a request: the operation and its
// category, or the refusal Hadoop gives (an op of another method or none
// is not of the method's enum; a known one not served is unsupported).
func webOp(r *http.Request, p webParams) (string, opCategory, error) {
	ops, ok := webOps[r.Method]
	if !ok {
		return "", "", &webError{http.StatusMethodNotAllowed, ipc.UnsupportedOperationException, "HTTP method " + r.Method + " is not supported"}
	}
	op := strings.ToUpper(p["op"])
	if op == "" {
		op = "NULL"
	}
	if cat, ok := ops[op]; ok {
		return op, cat, nil
	}
	for _, o := range otherOps[r.Method] {
		if o == op {
			return "", "", &webError{http.StatusBadRequest, ipc.UnsupportedOperationException, "op=" + op + " is not supported"}
		}
	}
	return "", "", badParam("op", "No enum constant org.apache.hadoop.hdfs.web.resources.%s.Op.%s", enumNames[r.Method], op)
}

// serveNameNode is NamenodeWebHdfsMethods on NameNode idx.
func (m *MiniDFS) serveNameNode(w http.ResponseWriter, r *http.Request, idx int) {
	path, ok := webPath(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	p := paramsOf(r)
	call, ok := m.webCaller(w, r, p, false)
	if !ok {
		return
	}
	op, cat, err := webOp(r, p)
	if err != nil {
		writeWebError(w, err)
		return
	}
	release, err := m.nn.admit(m.ha, idx, cat, call.User)
	if err != nil {
		writeWebError(w, err)
		return
	}
	defer release()
	ctx := r.Context()
	var v any
	switch op {
	case "GETFILESTATUS":
		v, err = m.nn.webFileStatus(ctx, call, path)
	case "LISTSTATUS":
		v, err = m.nn.webListStatus(ctx, call, path)
	case "GETHOMEDIRECTORY":
		v = map[string]string{"Path": "/user/" + ugi.ShortName(call.User)}
	case "MKDIRS":
		v, err = m.nn.webMkdirs(ctx, call, path, p)
	case "DELETE":
		v, err = m.nn.webDelete(ctx, call, path, p)
	case "RENAME":
		v, err = m.nn.webRename(ctx, call, path, p)
	case "OPEN", "CREATE":
		m.redirect(w, r, idx, call, path, op, p)
		return
	}
	if err != nil {
		writeWebError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// fileStatusJSON is a FileStatus of WebHDFS (JsonUtil.toJsonMap of an
// HdfsFileStatus), fields in Hadoop's (sorted) order.
type fileStatusJSON struct {
	AccessTime       uint64 `json:"accessTime"`
	BlockSize        uint64 `json:"blockSize"`
	ChildrenNum      int32  `json:"childrenNum"`
	FileID           uint64 `json:"fileId"`
	Group            string `json:"group"`
	Length           uint64 `json:"length"`
	ModificationTime uint64 `json:"modificationTime"`
	Owner            string `json:"owner"`
	PathSuffix       string `json:"pathSuffix"`
	Permission       string `json:"permission"`
	Replication      uint32 `json:"replication"`
	StoragePolicy    int    `json:"storagePolicy"`
	Type             string `json:"type"`
}

func toFileStatusJSON(st *hdfspb.HdfsFileStatusProto) fileStatusJSON {
	typ := "FILE"
	if st.GetFileType() == hdfspb.HdfsFileStatusProto_IS_DIR {
		typ = "DIRECTORY"
	}
	return fileStatusJSON{
		AccessTime: st.GetAccessTime(), BlockSize: st.GetBlocksize(), ChildrenNum: st.GetChildrenNum(),
		FileID: st.GetFileId(), Group: st.GetGroup(), Length: st.GetLength(), ModificationTime: st.GetModificationTime(),
		Owner: st.GetOwner(), PathSuffix: string(st.GetPath()), Permission: strconv.FormatUint(uint64(st.GetPermission().GetPerm()), 8),
		Replication: st.GetBlockReplication(), Type: typ,
	}
}

func (nn *namenode) webFileStatus(ctx context.Context, call *ipc.Call, path string) (any, error) {
	resp, err := nn.getFileInfo(ctx, call, &hdfspb.GetFileInfoRequestProto{Src: proto.String(path)})
	if err != nil {
		return nil, err
	}
	if resp.Fs == nil {
		return nil, ipc.Errorf(ipc.FileNotFoundException, "File does not exist: %s", path)
	}
	return map[string]any{"FileStatus": toFileStatusJSON(resp.Fs)}, nil
}

// webListStatus lists a directory (or a file itself) through every page
// of getListing.
func (nn *namenode) webListStatus(ctx context.Context, call *ipc.Call, path string) (any, error) {
	list := []fileStatusJSON{}
	var after []byte
	for {
		resp, err := nn.getListing(ctx, call, &hdfspb.GetListingRequestProto{Src: proto.String(path), StartAfter: after, NeedLocation: proto.Bool(false)})
		if err != nil {
			return nil, err
		}
		if resp.DirList == nil {
			return nil, ipc.Errorf(ipc.FileNotFoundException, "File %s does not exist.", path)
		}
		for _, st := range resp.DirList.PartialListing {
			js := toFileStatusJSON(st)
			if js.Type == "DIRECTORY" && js.PathSuffix != "" {
				// A listing's directories carry their number of
				// children, as getFileInfo's do.
				js.ChildrenNum = nn.childCount(gopath.Join(path, js.PathSuffix))
			}
			list = append(list, js)
			after = st.GetPath()
		}
		if resp.DirList.GetRemainingEntries() == 0 || len(resp.DirList.PartialListing) == 0 {
			break
		}
	}
	return map[string]any{"FileStatuses": map[string]any{"FileStatus": list}}, nil
}

// childCount is the number of entries of the directory at path (0 when
// it cannot be read).
func (nn *namenode) childCount(path string) int32 {
	rel, err := relPath(path)
	if err != nil {
		return 0
	}
	entries, err := nn.readDir(rel)
	if err != nil {
		return 0
	}
	return int32(len(entries))
}

func (nn *namenode) webMkdirs(ctx context.Context, call *ipc.Call, path string, p webParams) (any, error) {
	perm, err := p.permission(defaultDirPerm)
	if err != nil {
		return nil, err
	}
	resp, err := nn.mkdirs(ctx, call, &hdfspb.MkdirsRequestProto{Src: proto.String(path),
		Masked: &hdfspb.FsPermissionProto{Perm: proto.Uint32(perm)}, CreateParent: proto.Bool(true)})
	if err != nil {
		return nil, err
	}
	return map[string]bool{"boolean": resp.GetResult()}, nil
}

func (nn *namenode) webDelete(ctx context.Context, call *ipc.Call, path string, p webParams) (any, error) {
	recursive, err := p.boolean("recursive", false)
	if err != nil {
		return nil, err
	}
	resp, err := nn.delete(ctx, call, &hdfspb.DeleteRequestProto{Src: proto.String(path), Recursive: proto.Bool(recursive)})
	if err != nil {
		return nil, err
	}
	return map[string]bool{"boolean": resp.GetResult()}, nil
}

// webRename is the old rename ({"boolean": ...}), or rename2 with
// renameoptions (NONE, OVERWRITE), which answers nothing.
func (nn *namenode) webRename(ctx context.Context, call *ipc.Call, path string, p webParams) (any, error) {
	dst := p["destination"]
	if !strings.HasPrefix(dst, "/") {
		return nil, badParam("destination", "Invalid parameter value: destination = %q is not an absolute path.", dst)
	}
	opts, ok := p["renameoptions"]
	if !ok || opts == "" {
		resp, err := nn.rename(ctx, call, &hdfspb.RenameRequestProto{Src: proto.String(path), Dst: proto.String(dst)})
		if err != nil {
			return nil, err
		}
		return map[string]bool{"boolean": resp.GetResult()}, nil
	}
	overwrite := false
	for _, o := range strings.Split(opts, ",") {
		switch strings.ToUpper(strings.TrimSpace(o)) {
		case "NONE":
		case "OVERWRITE":
			overwrite = true
		default:
			return nil, badParam("renameoptions", "No enum constant org.apache.hadoop.fs.Options.Rename.%s", strings.ToUpper(o))
		}
	}
	if _, err := nn.rename2(ctx, call, &hdfspb.Rename2RequestProto{Src: proto.String(path), Dst: proto.String(dst), OverwriteDest: proto.Bool(overwrite)}); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// redirectParams are the parameters a NameNode passes on to the DataNode
// for OPEN and CREATE.
var redirectParams = []string{"offset", "length", "buffersize", "overwrite", "permission", "unmaskedpermission",
	"replication", "blocksize", "createparent", "createflag"}

// redirect answers OPEN and CREATE on a NameNode: 307 to the DataNode's
// HTTP address with the caller, the NameNode's RPC address and the
// operation's parameters, or with noredirect=true 200 and
// {"Location": ...}. OPEN first finds the file as the caller and checks
// the offset (chooseDatanode).
func (m *MiniDFS) redirect(w http.ResponseWriter, r *http.Request, idx int, call *ipc.Call, path, op string, p webParams) {
	noredirect, err := p.boolean("noredirect", false)
	if err == nil && op == "OPEN" {
		err = m.nn.checkOpen(r.Context(), call, path, p)
	}
	if err != nil {
		writeWebError(w, err)
		return
	}
	q := url.Values{"op": {op}, namenodeAddressParam: {m.nns[idx].addr}}
	pass := redirectParams
	if m.opts.Kerberos != nil {
		q.Set("delegation", m.redirectToken(call, p, idx))
	} else {
		pass = append([]string{"user.name", "doas"}, pass...)
	}
	for _, k := range pass {
		if v, ok := p[k]; ok {
			q.Set(k, v)
		}
	}
	loc := "http://" + m.dnWeb.addr + WebHDFSPrefix + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	if noredirect {
		writeJSON(w, http.StatusOK, map[string]string{"Location": loc})
		return
	}
	w.Header().Set("Location", loc)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.WriteHeader(http.StatusTemporaryRedirect)
}

// checkOpen is chooseDatanode's check for OPEN: the file exists for the
// caller and the offset lies within it.
func (nn *namenode) checkOpen(ctx context.Context, call *ipc.Call, path string, p webParams) error {
	offset, err := p.long("offset", 0, 0)
	if err != nil {
		return err
	}
	resp, err := nn.getFileInfo(ctx, call, &hdfspb.GetFileInfoRequestProto{Src: proto.String(path)})
	if err != nil {
		return err
	}
	if resp.Fs == nil {
		return ipc.Errorf(ipc.FileNotFoundException, "File %s not found.", path)
	}
	if n := int64(resp.Fs.GetLength()); offset >= n && n > 0 {
		return ipc.Errorf(ipc.IOException, "Offset=%d out of the range [0, %d); OPEN, path=%s", offset, n, path)
	}
	return nil
}
