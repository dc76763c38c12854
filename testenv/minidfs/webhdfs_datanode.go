package minidfs

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// webClients numbers the DataNode's web writers, each a client of the
// NameNode with its own lease name (as each request's DFSClient is).
var webClients atomic.Int64

// serveDataNode is the DataNode's WebHdfsHandler: OPEN streams a file,
// CREATE writes the request's body into a new file, each as the caller of
// the URL the NameNode redirected to, against the NameNode it names
// (namenoderpcaddress), through that NameNode's own handlers.
func (m *MiniDFS) serveDataNode(w http.ResponseWriter, r *http.Request) {
	path, ok := webPath(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	p := paramsOf(r)
	call, ok := m.webCaller(w, r, p, true)
	if !ok {
		return
	}
	idx := -1
	addr, given := p[namenodeAddressParam]
	for i, n := range m.nns {
		if n.addr == addr {
			idx = i
		}
	}
	var err error
	switch {
	case !given || addr == "":
		err = &webError{http.StatusBadRequest, illegalArgumentException, namenodeAddressParam + " is not specified."}
	case idx < 0:
		err = ipc.Errorf(ipc.IOException, "Failed to connect to %s: no NameNode of this cluster", addr)
	case r.Method == http.MethodGet && strings.ToUpper(p["op"]) == "OPEN":
		err = m.webOpen(w, r, idx, call, path, p)
	case r.Method == http.MethodPut && strings.ToUpper(p["op"]) == "CREATE":
		err = m.webCreate(w, r, idx, call, path, p)
	default:
		err = &webError{http.StatusBadRequest, illegalArgumentException, "Invalid operation " + p["op"]}
	}
	if err != nil {
		writeWebError(w, err)
	}
}

// webOpen streams path from offset, at most length bytes (all when
// absent), after the NameNode located it for the caller (READ on the
// file).
func (m *MiniDFS) webOpen(w http.ResponseWriter, r *http.Request, idx int, call *ipc.Call, path string, p webParams) error {
	offset, err := p.long("offset", 0, 0)
	if err != nil {
		return err
	}
	length, err := p.long("length", -1, 0)
	if err != nil {
		return err
	}
	release, err := m.nn.admit(m.ha, idx, opRead, call.User)
	if err != nil {
		return err
	}
	resp, err := m.nn.getBlockLocations(r.Context(), call, &hdfspb.GetBlockLocationsRequestProto{
		Src: proto.String(path), Offset: proto.Uint64(0), Length: proto.Uint64(1)})
	release()
	if err != nil {
		return err
	}
	rel, err := relPath(path)
	if err != nil {
		return err
	}
	f, err := m.root.Open(rel)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	size := int64(resp.GetLocations().GetFileLength())
	if offset > size {
		offset = size
	}
	n := size - offset
	if length >= 0 {
		n = min(n, length)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return fmt.Errorf("seeking %s: %w", path, err)
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
	w.WriteHeader(http.StatusOK)
	_, _ = io.CopyN(w, f, n)
	return nil
}

// webCreate creates path as the caller (the NameNode's create: WRITE on
// the last existing ancestor, or on the file it overwrites), writes the
// body into it and completes it; 201 Created, Location hdfs://<nn><path>.
func (m *MiniDFS) webCreate(w http.ResponseWriter, r *http.Request, idx int, call *ipc.Call, path string, p webParams) error {
	overwrite, err := p.boolean("overwrite", false)
	if err != nil {
		return err
	}
	createParent, err := p.boolean("createparent", true)
	if err != nil {
		return err
	}
	perm, err := p.permission(defaultFilePerm)
	if err != nil {
		return err
	}
	flags := uint32(hdfspb.CreateFlagProto_CREATE)
	if overwrite {
		flags |= uint32(hdfspb.CreateFlagProto_OVERWRITE)
	}
	client := fmt.Sprintf("DFSClient_webhdfs_%d", webClients.Add(1))
	err = m.webWrite(r.Context(), idx, call, func(ctx context.Context) error {
		_, err := m.nn.create(ctx, call, &hdfspb.CreateRequestProto{Src: proto.String(path),
			Masked: &hdfspb.FsPermissionProto{Perm: proto.Uint32(perm)}, ClientName: proto.String(client),
			CreateFlag: proto.Uint32(flags), CreateParent: proto.Bool(createParent),
			Replication: proto.Uint32(1), BlockSize: proto.Uint64(uint64(m.opts.BlockSize))})
		return err
	})
	if err != nil {
		return err
	}
	werr := m.writeBody(path, r.Body)
	// The writer closes its stream either way, completing the file (what
	// reached the DataNode stays) and giving up the lease.
	cerr := m.webWrite(r.Context(), idx, call, func(ctx context.Context) error {
		_, err := m.nn.complete(ctx, call, &hdfspb.CompleteRequestProto{Src: proto.String(path), ClientName: proto.String(client)})
		return err
	})
	if werr != nil {
		return werr
	}
	if cerr != nil {
		return cerr
	}
	w.Header().Set("Location", "hdfs://"+m.nns[idx].addr+path)
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusCreated)
	return nil
}

// webWrite runs one NameNode call of category WRITE on NameNode idx.
func (m *MiniDFS) webWrite(ctx context.Context, idx int, call *ipc.Call, fn func(context.Context) error) error {
	release, err := m.nn.admit(m.ha, idx, opWrite, call.User)
	if err != nil {
		return err
	}
	defer release()
	return fn(ctx)
}

// writeBody is the DataNode receiving a new file's data: straight into
// the backing file, as WRITE_BLOCK does.
func (m *MiniDFS) writeBody(path string, body io.Reader) error {
	rel, err := relPath(path)
	if err != nil {
		return err
	}
	f, err := m.root.OpenFile(rel, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := io.Copy(f, body); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
