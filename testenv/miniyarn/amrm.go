package miniyarn

import (
	"context"
	"fmt"
	"math"
	"net"
	"time"

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

// scheduler is one RM's ApplicationMasterProtocol endpoint: a Hadoop IPC
// server that accepts TOKEN (DIGEST-MD5) authentication with AMRM tokens.
// Its address is fixed for the life of the RM; only the active RM runs it
// (a standby RM has no ApplicationMasterService, so its port refuses
// connections). The state it serves is the RM's, shared by every RM index.
type scheduler struct {
	rm    *RM
	index int
	addr  string
	srv   *ipc.Server // nil while not serving
	hold  *portHold   // the address, held while not serving (best effort)
}

// start listens on the scheduler's address. Callers hold RM.adminMu.
func (s *scheduler) start() error {
	if s.srv != nil {
		return nil
	}
	// hadoop.rpc.protection: the qops the scheduler offers and requires of
	// AMs (ApplicationMasterService's IPC server reads it, through
	// SaslPropertiesResolver, like every Hadoop server).
	protection, err := ipc.ParseProtection(s.rm.opts.Conf[ipc.RPCProtectionKey])
	if err != nil {
		return fmt.Errorf("miniyarn: %w", err)
	}
	// The server listens on the held socket itself: the port is never free
	// for another process between the hold and the server.
	var l net.Listener
	if s.hold != nil {
		if l, err = s.hold.listen(); err != nil {
			return fmt.Errorf("miniyarn: starting the scheduler of %s at %s: %w", rmID(s.index), s.addr, err)
		}
		s.hold = nil
	}
	srv := ipc.NewServer(ipc.ServerOptions{Addr: s.addr, Listener: l, Token: s.rm.lookupToken, Protection: protection, Logger: s.rm.log})
	srv.Handle(ipc.ApplicationMasterProtocol, methodRegister, ipc.Typed(s.register))
	srv.Handle(ipc.ApplicationMasterProtocol, methodAllocate, ipc.Typed(s.allocate))
	srv.Handle(ipc.ApplicationMasterProtocol, methodFinish, ipc.Typed(s.finish))
	// The server lives until the RM stops being active, not until a
	// caller's context ends.
	if err := srv.Start(context.Background()); err != nil {
		s.hold, _, _ = holdPort(s.addr, "")
		return fmt.Errorf("miniyarn: starting the scheduler of %s at %s: %w", rmID(s.index), s.addr, err)
	}
	s.srv = srv
	return nil
}

// stop closes the server and every AM connection to it; with keep, the
// address stays held for a later start. Callers hold RM.adminMu, not RM.mu
// (the server waits for its handlers).
func (s *scheduler) stop(keep bool) error {
	var err error
	if s.srv != nil {
		if keep {
			// Held before the server closes (both sockets share the port),
			// so that it is never free in between; best effort.
			s.hold, _, _ = holdPort(s.addr, "")
		}
		err = s.srv.Close()
		s.srv = nil
	}
	if !keep {
		s.hold.release()
		s.hold = nil
	}
	return err
}

// callAttempt returns the attempt and the master key of the calling AM's
// token (YarnServerSecurityUtils.authorizeRequest), once it checked that
// this scheduler belongs to the active, running RM: a call that raced a
// failover or a stop is answered as a standby answers.
func (s *scheduler) callAttempt(call *ipc.Call) (tokenIdentity, error) {
	if call.Auth != ipc.AuthToken {
		return tokenIdentity{}, ipc.Errorf(ipc.AccessControlException, "ApplicationMasterProtocol needs an AMRM token, got %s authentication", call.Auth)
	}
	tid, err := decodeIdentifier(call.TokenIdentifier)
	if err != nil {
		return tokenIdentity{}, ipc.Errorf(ipc.AccessControlException, "%v", err)
	}
	s.rm.mu.Lock()
	serving := s.rm.servingLocked(s.index)
	s.rm.mu.Unlock()
	if !serving {
		return tokenIdentity{}, ipc.Errorf(ipc.StandbyException, "ResourceManager %s is not active", rmID(s.index))
	}
	return tid, nil
}

func (s *scheduler) register(_ context.Context, call *ipc.Call, req *yarnpb.RegisterApplicationMasterRequestProto) (*yarnpb.RegisterApplicationMasterResponseProto, error) {
	tid, err := s.callAttempt(call)
	if err != nil {
		return nil, err
	}
	queue, err := s.rm.registerAM(tid, req.GetHost(), req.GetTrackingUrl())
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
	tid, err := s.callAttempt(call)
	if err != nil {
		return nil, err
	}
	return s.rm.heartbeatAM(tid, req)
}

func (s *scheduler) finish(_ context.Context, call *ipc.Call, req *yarnpb.FinishApplicationMasterRequestProto) (*yarnpb.FinishApplicationMasterResponseProto, error) {
	tid, err := s.callAttempt(call)
	if err != nil {
		return nil, err
	}
	stored, err := s.rm.unregisterAM(tid.attempt, finalStatusOf(req.GetFinalApplicationStatus()), req.GetDiagnostics(), req.GetTrackingUrl())
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

// liveAttemptLocked finds the current, unfinished attempt id (one the
// ApplicationMasterService knows). Callers hold rm.mu.
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
// The AM registers again after a failover or a restart (the new active RM
// recovered the attempt unregistered); responseId restarts at 0.
func (rm *RM) registerAM(tid tokenIdentity, host, trackingURL string) (string, error) {
	rm.mu.Lock()
	defer rm.flushTransitions()
	defer rm.mu.Unlock()
	a, at, err := rm.liveAttemptLocked(tid.attempt)
	if err != nil {
		return "", err
	}
	if at.registered {
		return "", ipc.Errorf(ipc.InvalidApplicationMasterRequestException, "Application Master is already registered : %s", a.id)
	}
	at.registered = true
	at.lastAllocate = &yarnpb.AllocateResponseProto{ResponseId: proto.Int32(0)}
	at.state = attemptRunning
	rm.noteHeldKeyLocked(at, tid.key)
	a.amTracking = trackingURL
	rm.setState(a, yarn.StateRunning)
	rm.log.Info("miniyarn: AM registered", "yarn_app_id", a.id.String(), "attempt", at.id.String(), "host", host)
	return a.sc.Queue, nil
}

// heartbeatAM answers an allocate call and records its progress (0–1), as
// ApplicationMasterService.allocate does: an AM that has not registered
// (again, after a failover or a restart) is told to
// (ApplicationMasterNotRegisteredException); the request must echo the last
// response's responseId; one a step old (a retried call) gets the last
// response again without effect; any other is refused with
// InvalidApplicationMasterRequestException. While a rolled master key waits
// for activation, the answer to a connection authenticated with another
// key carries the attempt's token of the new key.
func (rm *RM) heartbeatAM(tid tokenIdentity, req *yarnpb.AllocateRequestProto) (*yarnpb.AllocateResponseProto, error) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, at, err := rm.liveAttemptLocked(tid.attempt)
	if err != nil {
		return nil, err
	}
	if !at.registered {
		return nil, ipc.Errorf(ipc.ApplicationMasterNotRegisteredException,
			"AM is not registered for known application attempt: %s or RM had restarted after AM registered.  AM should re-register.", at.id)
	}
	last := at.lastAllocate
	switch got, want := req.GetResponseId(), last.GetResponseId(); {
	case nextResponseID(got) == want:
		return last, nil
	case got != want:
		return nil, ipc.Errorf(ipc.InvalidApplicationMasterRequestException,
			"Invalid responseId in AllocateRequest from application attempt: %s, expect responseId to be %d, but get %d", at.id, want, got)
	}
	rm.noteHeldKeyLocked(at, tid.key)
	if t := last.GetAmRmToken(); t != nil {
		// The AM echoes the answer that carried a token: it holds it.
		if held, err := decodeIdentifier(t.GetIdentifier()); err == nil {
			rm.noteHeldKeyLocked(at, held.key)
		}
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
	if next := rm.keys.next; next != nil && next.id != tid.key {
		if at.tokenKey != next.id {
			if _, err := rm.issueTokenLocked(at); err != nil {
				return nil, err
			}
			rm.log.Info("miniyarn: the AMRM token was rolled over; sending the new one", "yarn_app_id", a.id.String(), "key_id", next.id)
		}
		resp.AmRmToken = tokenProto(at.token)
	}
	at.lastAllocate = resp
	return resp, nil
}

// noteHeldKeyLocked records that the attempt's AM holds a token of key.
// Callers hold rm.mu.
func (rm *RM) noteHeldKeyLocked(at *attempt, key int32) {
	at.heldKey = max(at.heldKey, key)
}

// nextResponseID is the responseId after id, wrapping to 0 past the largest
// int32 (ApplicationMasterServiceUtils.getNextResponseId).
func nextResponseID(id int32) int32 { return (id + 1) & math.MaxInt32 }

// unregisterAM records an AM's final status, as
// ApplicationMasterService.finishApplicationMaster does: once the
// application's final state is stored (FINISHING or any final state) it
// answers isUnregistered=true, before any other check, so an AM that
// unregistered before a restart is done; an attempt the service does not
// know is refused (InvalidApplicationMasterRequestException), and one that
// has not registered (again, after a failover or a restart) too
// (ApplicationMasterNotRegisteredException). The call that unregisters
// answers false (the state store writes the final state afterwards): the
// AM asks again. The application is then FINISHING with the AM's final
// status (UNDEFINED counts as SUCCEEDED), reported as FINISHED, until the
// AM container exits, which it has FinishingGrace to do before the
// NodeManager kills it.
func (rm *RM) unregisterAM(id yarn.AttemptID, final yarn.FinalStatus, diag, trackingURL string) (bool, error) {
	rm.mu.Lock()
	defer rm.flushTransitions()
	defer rm.mu.Unlock()
	a, ok := rm.apps[id.App]
	if !ok {
		return false, ipc.Errorf(ipc.ApplicationNotFoundException, "Application with id '%s' doesn't exist in RM.", id.App)
	}
	if a.state.Final() {
		return true, nil
	}
	a, at, err := rm.liveAttemptLocked(id)
	if err != nil {
		return false, ipc.Errorf(ipc.InvalidApplicationMasterRequestException, "Application doesn't exist in cache %s", id)
	}
	if !at.registered {
		return false, ipc.Errorf(ipc.ApplicationMasterNotRegisteredException,
			"Application Master is trying to unregister before registering for: %s", id.App)
	}
	at.unregistered = true
	at.state = attemptFinishing
	if trackingURL != "" {
		a.amTracking = trackingURL
	}
	if final == yarn.FinalUndefined {
		final = yarn.FinalSucceeded
	}
	rm.finishing(a, final, diag)
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
