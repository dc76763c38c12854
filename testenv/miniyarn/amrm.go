package miniyarn

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"fmt"
	"math"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/yarn"
	"google.golang.org/protobuf/proto"
)

// AMRM protocol method names (ApplicationMasterProtocolPB).
const (
	methodRegister = "registerApplicationMaster"
	methodAllocate = "allocate"
	methodFinish   = "finishApplicationMaster"
)

// scheduler is the RM's ApplicationMasterProtocol endpoint: a Hadoop IPC server
// that accepts TOKEN (DIGEST-MD5) authentication with AMRM tokens.
type scheduler struct {
	rm        *RM
	srv       *ipc.Server
	keyID     int32
	masterKey []byte
}

func startScheduler(_ context.Context, rm *RM) (*scheduler, error) {
	s := &scheduler{rm: rm, keyID: 1, masterKey: make([]byte, 32)}
	if _, err := rand.Read(s.masterKey); err != nil {
		return nil, fmt.Errorf("miniyarn: making the AMRM master key: %w", err)
	}
	// hadoop.rpc.protection: the qops the scheduler offers and requires of
	// AMs (ApplicationMasterService's IPC server reads it, through
	// SaslPropertiesResolver, like every Hadoop server).
	protection, err := ipc.ParseProtection(rm.opts.Conf[ipc.RPCProtectionKey])
	if err != nil {
		return nil, fmt.Errorf("miniyarn: %w", err)
	}
	s.srv = ipc.NewServer(ipc.ServerOptions{Addr: "127.0.0.1:0", Token: s.lookup, Protection: protection, Logger: rm.log})
	s.srv.Handle(ipc.ApplicationMasterProtocol, methodRegister, ipc.Typed(s.register))
	s.srv.Handle(ipc.ApplicationMasterProtocol, methodAllocate, ipc.Typed(s.allocate))
	s.srv.Handle(ipc.ApplicationMasterProtocol, methodFinish, ipc.Typed(s.finish))
	// The server lives until Close, not until the start context ends.
	if err := s.srv.Start(context.Background()); err != nil {
		return nil, fmt.Errorf("miniyarn: starting the scheduler: %w", err)
	}
	return s, nil
}

func (s *scheduler) addr() string { return s.srv.Addr() }

func (s *scheduler) close() error { return s.srv.Close() }

// tokenFor issues the AMRM token of an attempt: the identifier is the encoded
// AMRMTokenIdentifierProto, the password its HMAC-SHA1 under the master key.
// Its service is empty, as AMRMTokenSecretManager.createAndGetAMRMToken
// leaves it: the AM finds the scheduler in its HADOOP_CONF_DIR.
func (s *scheduler) tokenFor(id yarn.AttemptID) (hadoop.Token, error) {
	ident, err := proto.Marshal(&yarnpb.AMRMTokenIdentifierProto{
		AppAttemptId: attemptProto(id),
		KeyId:        proto.Int32(s.keyID),
	})
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("encoding AMRM token identifier: %w", err)
	}
	return hadoop.Token{
		Identifier: ident,
		Password:   s.password(ident),
		Kind:       hadoop.KindAMRMToken,
	}, nil
}

func (s *scheduler) password(ident []byte) []byte {
	m := hmac.New(sha1.New, s.masterKey)
	m.Write(ident)
	return m.Sum(nil)
}

func attemptProto(id yarn.AttemptID) *yarnpb.ApplicationAttemptIdProto {
	return &yarnpb.ApplicationAttemptIdProto{
		ApplicationId: &yarnpb.ApplicationIdProto{
			Id:               proto.Int32(int32(id.App.Sequence)),
			ClusterTimestamp: proto.Int64(id.App.ClusterTimestamp),
		},
		AttemptId: proto.Int32(int32(id.Attempt)),
	}
}

// decodeIdentifier returns the attempt an AMRM token identifier names.
func (s *scheduler) decodeIdentifier(ident []byte) (yarn.AttemptID, error) {
	var p yarnpb.AMRMTokenIdentifierProto
	if err := proto.Unmarshal(ident, &p); err != nil {
		return yarn.AttemptID{}, fmt.Errorf("decoding AMRM token identifier: %w", err)
	}
	if p.GetKeyId() != s.keyID {
		return yarn.AttemptID{}, fmt.Errorf("AMRM token master key %d is unknown", p.GetKeyId())
	}
	a := p.GetAppAttemptId()
	return yarn.AttemptID{
		App: yarn.ApplicationID{
			ClusterTimestamp: a.GetApplicationId().GetClusterTimestamp(),
			Sequence:         int64(a.GetApplicationId().GetId()),
		},
		Attempt: int64(a.GetAttemptId()),
	}, nil
}

// lookup is the SASL secret lookup: the password of a live attempt's token, and
// the attempt id as the user (as AMRMTokenIdentifier.getUser does).
func (s *scheduler) lookup(ident []byte) ([]byte, string, error) {
	id, err := s.decodeIdentifier(ident)
	if err != nil {
		return nil, "", err
	}
	if _, _, err := s.rm.liveAttempt(id); err != nil {
		return nil, "", ipc.Errorf(ipc.InvalidTokenException, "Password not found for ApplicationAttempt %s", id)
	}
	return s.password(ident), id.String(), nil
}

// callAttempt returns the attempt of the calling AM's token.
func (s *scheduler) callAttempt(call *ipc.Call) (yarn.AttemptID, error) {
	if call.Auth != ipc.AuthToken {
		return yarn.AttemptID{}, ipc.Errorf(ipc.AccessControlException, "ApplicationMasterProtocol needs an AMRM token, got %s authentication", call.Auth)
	}
	id, err := s.decodeIdentifier(call.TokenIdentifier)
	if err != nil {
		return yarn.AttemptID{}, ipc.Errorf(ipc.AccessControlException, "%v", err)
	}
	return id, nil
}

func (s *scheduler) register(_ context.Context, call *ipc.Call, req *yarnpb.RegisterApplicationMasterRequestProto) (*yarnpb.RegisterApplicationMasterResponseProto, error) {
	id, err := s.callAttempt(call)
	if err != nil {
		return nil, err
	}
	queue, err := s.rm.registerAM(id, req.GetHost(), req.GetTrackingUrl())
	if err != nil {
		return nil, err
	}
	max := s.rm.opts.MaxResource
	return &yarnpb.RegisterApplicationMasterResponseProto{
		MaximumCapability:      &yarnpb.ResourceProto{Memory: proto.Int64(max.MemoryMB), VirtualCores: proto.Int32(int32(max.VCores))},
		Queue:                  proto.String(queue),
		SchedulerResourceTypes: []yarnpb.SchedulerResourceTypes{yarnpb.SchedulerResourceTypes_MEMORY},
	}, nil
}

func (s *scheduler) allocate(_ context.Context, call *ipc.Call, req *yarnpb.AllocateRequestProto) (*yarnpb.AllocateResponseProto, error) {
	id, err := s.callAttempt(call)
	if err != nil {
		return nil, err
	}
	return s.rm.heartbeatAM(id, req)
}

func (s *scheduler) finish(_ context.Context, call *ipc.Call, req *yarnpb.FinishApplicationMasterRequestProto) (*yarnpb.FinishApplicationMasterResponseProto, error) {
	id, err := s.callAttempt(call)
	if err != nil {
		return nil, err
	}
	stored, err := s.rm.unregisterAM(id, finalStatusOf(req.GetFinalApplicationStatus()), req.GetDiagnostics(), req.GetTrackingUrl())
	if err != nil {
		return nil, err
	}
	return &yarnpb.FinishApplicationMasterResponseProto{IsUnregistered: proto.Bool(stored)}, nil
}

func finalStatusOf(p yarnpb.FinalApplicationStatusProto) yarn.FinalStatus {
	switch p {
	case yarnpb.FinalApplicationStatusProto_APP_SUCCEEDED:
		return yarn.FinalSucceeded
	case yarnpb.FinalApplicationStatusProto_APP_FAILED:
		return yarn.FinalFailed
	case yarnpb.FinalApplicationStatusProto_APP_KILLED:
		return yarn.FinalKilled
	case yarnpb.FinalApplicationStatusProto_APP_ENDED:
		return yarn.FinalEnded
	default:
		return yarn.FinalUndefined
	}
}

// liveAttempt finds the current, unfinished attempt id. Callers must not hold rm.mu.
func (rm *RM) liveAttempt(id yarn.AttemptID) (*app, *attempt, error) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.liveAttemptLocked(id)
}

func (rm *RM) liveAttemptLocked(id yarn.AttemptID) (*app, *attempt, error) {
	a, ok := rm.apps[id.App]
	if !ok {
		return nil, nil, ipc.Errorf(ipc.ApplicationNotFoundException, "Application with id '%s' doesn't exist in RM.", id.App)
	}
	cur := a.current()
	if cur == nil || cur.id != id || a.killing || cur.state == attemptFailed || cur.state == attemptKilled ||
		(a.state.Final() && !cur.unregistered) {
		return nil, nil, ipc.Errorf(ipc.ApplicationAttemptNotFoundException,
			"Application attempt %s doesn't exist in ApplicationMasterService cache.", id)
	}
	return a, cur, nil
}

// registerAM records an AM's registration; the application becomes RUNNING.
func (rm *RM) registerAM(id yarn.AttemptID, host, trackingURL string) (string, error) {
	rm.mu.Lock()
	defer rm.flushTransitions()
	defer rm.mu.Unlock()
	a, at, err := rm.liveAttemptLocked(id)
	if err != nil {
		return "", err
	}
	if at.registered {
		return "", ipc.Errorf(ipc.InvalidApplicationMasterRequestException, "Application Master is already registered : %s", id.App)
	}
	at.registered = true
	at.lastAllocate = &yarnpb.AllocateResponseProto{ResponseId: proto.Int32(0)}
	at.state = attemptRunning
	a.amTracking = trackingURL
	rm.setState(a, yarn.StateRunning)
	rm.log.Info("miniyarn: AM registered", "yarn_app_id", a.id.String(), "attempt", id.String(), "host", host)
	return a.sc.Queue, nil
}

// heartbeatAM answers an allocate call and records its progress (0–1), as
// ApplicationMasterService.allocate does: the request must echo the last
// response's responseId; one a step old (a retried call) gets the last
// response again without effect; any other is refused with
// InvalidApplicationMasterRequestException.
func (rm *RM) heartbeatAM(id yarn.AttemptID, req *yarnpb.AllocateRequestProto) (*yarnpb.AllocateResponseProto, error) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, at, err := rm.liveAttemptLocked(id)
	if err != nil {
		return nil, err
	}
	if !at.registered {
		return nil, ipc.Errorf(ipc.ApplicationMasterNotRegisteredException,
			"AM is not registered for known application attempt: %s or RM had restarted after AM registered.  AM should re-register.", id)
	}
	last := at.lastAllocate
	switch got, want := req.GetResponseId(), last.GetResponseId(); {
	case nextResponseID(got) == want:
		return last, nil
	case got != want:
		return nil, ipc.Errorf(ipc.InvalidApplicationMasterRequestException,
			"Invalid responseId in AllocateRequest from application attempt: %s, expect responseId to be %d, but get %d", id, want, got)
	}
	if !at.unregistered {
		p := float64(req.GetProgress() * 100) // float32 arithmetic, as the RM computes it
		a.progress = min(max(p, 0), 100)
	}
	limit := rm.opts.MaxResource
	resp := &yarnpb.AllocateResponseProto{
		ResponseId:      proto.Int32(nextResponseID(last.GetResponseId())),
		Limit:           &yarnpb.ResourceProto{Memory: proto.Int64(limit.MemoryMB), VirtualCores: proto.Int32(int32(limit.VCores))},
		NumClusterNodes: proto.Int32(1),
	}
	at.lastAllocate = resp
	return resp, nil
}

// nextResponseID is the responseId after id, wrapping to 0 past the largest
// int32 (ApplicationMasterServiceUtils.getNextResponseId).
func nextResponseID(id int32) int32 { return (id + 1) & math.MaxInt32 }

// unregisterAM records an AM's final status; the application ends FINISHED with
// that final status (UNDEFINED counts as SUCCEEDED, as on the RM). The
// container gets FinishingGrace to exit by itself before it is killed. It
// reports whether the final state was stored before the call: like
// ApplicationMasterService.finishApplicationMaster, which answers
// isUnregistered=false to the call that unregisters (the state store writes
// the final state afterwards) and true once isAppFinalStateStored, the
// first call gets false and the AM must ask again.
func (rm *RM) unregisterAM(id yarn.AttemptID, final yarn.FinalStatus, diag, trackingURL string) (bool, error) {
	rm.mu.Lock()
	defer rm.flushTransitions()
	defer rm.mu.Unlock()
	a, at, err := rm.liveAttemptLocked(id)
	if err != nil {
		return false, err
	}
	if at.unregistered {
		return true, nil
	}
	if !at.registered {
		return false, ipc.Errorf(ipc.ApplicationMasterNotRegisteredException,
			"Application Master is trying to unregister before registering for: %s", id.App)
	}
	at.unregistered = true
	at.state = attemptFinished
	if trackingURL != "" {
		a.amTracking = trackingURL
	}
	if final == yarn.FinalUndefined {
		final = yarn.FinalSucceeded
	}
	rm.finish(a, yarn.StateFinished, final, diag)
	a.progress = 100
	rm.wg.Add(1)
	go func() {
		defer rm.wg.Done()
		t := time.NewTimer(rm.opts.FinishingGrace)
		defer t.Stop()
		select {
		case <-at.exited:
		case <-t.C:
			rm.mu.Lock()
			if at.proc != nil {
				rm.signalGroupLocked(at)
			}
			rm.mu.Unlock()
		}
	}()
	return false, nil
}
