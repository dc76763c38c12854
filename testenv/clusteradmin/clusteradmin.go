// Package clusteradmin is the administrator's side door of the local
// cluster: what Hadoop's own admin commands do to a real cluster
// (`hdfs haadmin -failover nn1 nn2`, `yarn rmadmin -failover rm1 rm2`,
// `yarn --daemon stop|start resourcemanager`) done to the in-process
// stand-ins of package localcluster, so that a user of `gozie minicluster`
// or a test can fail a NameNode or a ResourceManager over, or restart the
// ResourceManager, while jobs run.
//
// A real cluster reaches its daemons over HAServiceProtocol and with
// process signals; the stand-ins live in one process, so the cluster
// serves these commands over HTTP on a loopback port instead. The address
// and a token file are named in the cluster's core-site.xml (AddressKey,
// TokenFileKey), so the tools find them through HADOOP_CONF_DIR as
// Hadoop's find the daemons. The token file is readable by the cluster's
// OS user only: nobody else on the machine may fail the cluster over.
package clusteradmin

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// Keys of the cluster's core-site.xml that locate the admin endpoint. Real
// Hadoop ignores them.
const (
	AddressKey   = "gozie.localcluster.admin.address"
	TokenFileKey = "gozie.localcluster.admin.token.file"
)

// tokenHeader carries the admin token.
const tokenHeader = "X-Gozie-Admin-Token"

// Service names an HA service kind.
type Service string

// The services of the local cluster.
const (
	NameNode        Service = "namenode"
	ResourceManager Service = "resourcemanager"
)

// State is the HA state of one daemon, spelled as HAServiceState prints
// it ("active", "standby"), or "stopped" for a ResourceManager that is
// down.
type State string

// States of a daemon.
const (
	Active  State = "active"
	Standby State = "standby"
	Stopped State = "stopped"
)

// Cluster is what the admin endpoint acts on. Ids are the HA ids of the
// cluster's configuration (nn1, nn2; rm1, rm2).
type Cluster interface {
	// States reports each daemon's id and state, in id order.
	States(s Service) ([]DaemonState, error)
	// Failover makes to the active daemon of service s and from a standby,
	// as FailoverController.failover does.
	Failover(ctx context.Context, s Service, from, to string) error
	// StopResourceManager takes every ResourceManager down (their ports
	// closed), leaving the NodeManager and its containers running.
	StopResourceManager() error
	// StartResourceManager brings the ResourceManagers back on the same
	// ports, recovering every application (a work-preserving restart).
	StartResourceManager(ctx context.Context) error
}

// DaemonState is one daemon's id and state.
type DaemonState struct {
	ID    string `json:"id"`
	State State  `json:"state"`
}

// NewToken returns a new random admin token.
func NewToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("clusteradmin: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// WriteToken writes token to path, readable by its owner only.
func WriteToken(path, token string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(token+"\n"), 0o600); err != nil {
		return fmt.Errorf("clusteradmin: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("clusteradmin: %w", err)
	}
	return nil
}

// Handler serves the admin commands on c to callers that present token.
func Handler(c Cluster, token string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /state/{service}", func(w http.ResponseWriter, r *http.Request) {
		s, err := service(r.PathValue("service"))
		if err != nil {
			fail(w, http.StatusNotFound, err)
			return
		}
		states, err := c.States(s)
		if err != nil {
			fail(w, http.StatusConflict, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(states)
	})
	mux.HandleFunc("POST /failover/{service}", func(w http.ResponseWriter, r *http.Request) {
		s, err := service(r.PathValue("service"))
		if err != nil {
			fail(w, http.StatusNotFound, err)
			return
		}
		if err := c.Failover(r.Context(), s, r.URL.Query().Get("from"), r.URL.Query().Get("to")); err != nil {
			fail(w, http.StatusConflict, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /resourcemanager/stop", func(w http.ResponseWriter, r *http.Request) {
		if err := c.StopResourceManager(); err != nil {
			fail(w, http.StatusConflict, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /resourcemanager/start", func(w http.ResponseWriter, r *http.Request) {
		if err := c.StartResourceManager(r.Context()); err != nil {
			fail(w, http.StatusConflict, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get(tokenHeader)), want) != 1 {
			fail(w, http.StatusForbidden, errors.New("not the cluster's administrator (no valid admin token)"))
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func service(name string) (Service, error) {
	switch s := Service(name); s {
	case NameNode, ResourceManager:
		return s, nil
	}
	return "", fmt.Errorf("no HA service %q", name)
}

func fail(w http.ResponseWriter, code int, err error) {
	http.Error(w, err.Error(), code)
}

// Client calls a cluster's admin endpoint.
type Client struct {
	base  string
	token string
	http  *http.Client
}

// NewClient returns a client of the endpoint at addr (host:port) with the
// token read from tokenFile.
func NewClient(addr, tokenFile string) (*Client, error) {
	if addr == "" || tokenFile == "" {
		return nil, fmt.Errorf("the cluster names no admin endpoint (%s, %s): not a gozie local cluster", AddressKey, TokenFileKey)
	}
	b, err := os.ReadFile(tokenFile)
	if err != nil {
		return nil, fmt.Errorf("reading the admin token: %w", err)
	}
	return &Client{base: "http://" + addr, token: strings.TrimSpace(string(b)),
		http: &http.Client{Timeout: 2 * time.Minute}}, nil
}

// States reports the daemons of s.
func (c *Client) States(ctx context.Context, s Service) ([]DaemonState, error) {
	var out []DaemonState
	err := c.do(ctx, http.MethodGet, "/state/"+string(s), &out)
	return out, err
}

// Failover makes to the active daemon of s, from a standby.
func (c *Client) Failover(ctx context.Context, s Service, from, to string) error {
	return c.do(ctx, http.MethodPost, "/failover/"+string(s)+"?from="+from+"&to="+to, nil)
}

// StopResourceManager takes the ResourceManagers down.
func (c *Client) StopResourceManager(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/resourcemanager/stop", nil)
}

// StartResourceManager brings the ResourceManagers back.
func (c *Client) StartResourceManager(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/resourcemanager/start", nil)
}

func (c *Client) do(ctx context.Context, method, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set(tokenHeader, c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("reaching the cluster: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return errors.New(strings.TrimSpace(string(body)))
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return fmt.Errorf("reading the cluster's answer: %w", err)
		}
	}
	return nil
}

// Serve serves h on l until ctx ends.
func Serve(ctx context.Context, l net.Listener, h http.Handler) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	_ = srv.Serve(l)
}
